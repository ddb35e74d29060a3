import type { McpTool } from '../tool.ts';
import { chatTool } from './chat.ts';
import { consolidateTool } from './consolidate.ts';
import { contextTool } from './context-block.ts';
import { forgetTool } from './forget.ts';
import { inspectTool } from './inspect.ts';
import { recallTool } from './recall.ts';
import { reflectTool } from './reflect.ts';
import { rememberTool } from './remember.ts';
import { searchDocumentationTool } from './search-documentation.ts';
import { uploadTool } from './upload.ts';
import { addTurnTool } from './add-turn.ts';
import { documentStatusTool } from './document-status.ts';
import { factHistoryTool } from './fact-history.ts';
import { listEntitiesTool } from './list-entities.ts';
import { listFactsTool } from './list-facts.ts';
import { updateFactTool } from './update-fact.ts';

/** Every tool the live server offers; src/schemas/mcp-tools.ts must list exactly these. */
export const MCP_TOOL_HANDLERS: readonly McpTool[] = [
  rememberTool,
  recallTool,
  contextTool,
  chatTool,
  reflectTool,
  consolidateTool,
  forgetTool,
  uploadTool,
  inspectTool,
  updateFactTool,
  listFactsTool,
  factHistoryTool,
  addTurnTool,
  listEntitiesTool,
  documentStatusTool,
  searchDocumentationTool,
];
