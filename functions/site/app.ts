import { Hono } from 'hono';

export const siteApp = new Hono<{ Bindings: Env }>();

siteApp.all('*', (c) => c.env.ASSETS.fetch(c.req.raw));
