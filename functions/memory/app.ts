import { Hono } from 'hono';

export const memoryApp = new Hono<{ Bindings: Env }>();

memoryApp.get('/health', (c) => c.json({ status: 'ok' }));
