import type { ModelProvider } from '../../contract/provider.js';
import type { AnyTool } from '../../contract/tool.js';
import { createAgentTool } from '../../tools/agent/agent-tool.js';
import { createAskUserQuestionTool } from '../../tools/ask-user-question/ask-user-question-tool.js';
import { createBashTool } from '../../tools/bash/bash-tool.js';
import { editTool } from '../../tools/edit/edit-tool.js';
import { createGlobTool } from '../../tools/glob/glob-tool.js';
import { createGrepTool } from '../../tools/grep/grep-tool.js';
import { listMcpResourcesTool } from '../../tools/mcp-resources/list-mcp-resources-tool.js';
import { readMcpResourceTool } from '../../tools/mcp-resources/read-mcp-resource-tool.js';
import { notebookEditTool } from '../../tools/notebook-edit/notebook-edit-tool.js';
import { createEnterPlanModeTool, createExitPlanModeTool } from '../../tools/plan-mode/plan-mode-tools.js';
import { createReadTool } from '../../tools/read/read-tool.js';
import { createTaskOutputTool } from '../../tools/task-output/task-output-tool.js';
import { createTaskStopTool } from '../../tools/task-stop/task-stop-tool.js';
import { createTodoWriteTool } from '../../tools/todo-write/todo-write-tool.js';
import { createToolSearchTool } from '../../tools/tool-search/tool-search.js';
import { createWebFetchTool } from '../../tools/web-fetch/web-fetch-tool.js';
import { webSearchTool } from '../../tools/web-search/web-search-tool.js';
import { writeTool } from '../../tools/write/write-tool.js';
import type { SubagentType } from '../../session/index.js';

/** The built-in tools of a session, configured for it. */
export function createBuiltinTools(options: {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly provider: ModelProvider;
  readonly interactive: boolean;
  readonly hasMcp: boolean;
  readonly agentTypes: readonly SubagentType[];
  /** Hosts WebFetch may reach on private addresses (from `WebFetch(domain:…)` allow rules). */
  readonly allowPrivateHosts: readonly string[];
}): AnyTool[] {
  const tools: AnyTool[] = [
    createReadTool(),
    editTool,
    writeTool,
    notebookEditTool,
    createGlobTool(),
    createGrepTool(),
    createBashTool({ env: options.env }),
    createTaskOutputTool(),
    createTaskStopTool(),
    createTodoWriteTool(),
    createWebFetchTool({ allowPrivateHosts: options.allowPrivateHosts }),
    createToolSearchTool(),
    createAgentTool({
      agentTypes: options.agentTypes.map((type) => ({ name: type.name, description: type.description })),
    }),
    createEnterPlanModeTool(),
    createExitPlanModeTool(),
  ];
  if (options.interactive) tools.push(createAskUserQuestionTool());
  if (options.provider.capabilities.webSearch) tools.push(webSearchTool);
  if (options.hasMcp) tools.push(listMcpResourcesTool, readMcpResourceTool);
  return tools;
}
