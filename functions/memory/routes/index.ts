import type { RouteModule } from './registry.ts';
import { chatRoutes } from './chat.ts';
import { consolidateRoutes } from './consolidate.ts';
import { contextBlockRoutes } from './context-block.ts';
import { contextsRoutes } from './contexts.ts';
import { documentsRoutes } from './documents.ts';
import { entitiesRoutes } from './entities.ts';
import { exportRoutes } from './export.ts';
import { factVersionsRoutes } from './fact-versions.ts';
import { factsRoutes } from './facts.ts';
import { keysRoutes } from './keys.ts';
import { mcpRoutes } from '../mcp/route.ts';
import { migrationsRoutes } from './migrations.ts';
import { principalsRoutes } from './principals.ts';
import { queryRoutes } from './query.ts';
import { reflectRoutes } from './reflect.ts';
import { sessionContextRoutes } from './session-context.ts';
import { sessionsRoutes } from './sessions.ts';
import { whoamiRoutes } from './whoami.ts';

/**
 * Every route group of the memory service, in registration order. To add a group: one import and
 * one entry here. Control-plane groups come before the `/api/v1/{context_id}/...` groups: the
 * first route that matches answers, and `/api/v1/{context_id}/sessions/{session_id}` would
 * otherwise answer `/api/v1/contexts/sessions/export` (test/workers/memory/reserved-context-ids).
 */
export const ROUTE_MODULES: readonly RouteModule[] = [
  contextsRoutes,
  principalsRoutes,
  keysRoutes,
  whoamiRoutes,
  migrationsRoutes,
  exportRoutes,
  factsRoutes,
  factVersionsRoutes,
  entitiesRoutes,
  queryRoutes,
  sessionsRoutes,
  contextBlockRoutes,
  mcpRoutes,
  documentsRoutes,
  chatRoutes,
  reflectRoutes,
  consolidateRoutes,
  sessionContextRoutes,
];
