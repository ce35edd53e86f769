export { createAgentTool, type AgentInput } from './agent-tool.js';
export { subagentService, type SubagentRequest, type SubagentResult, type SubagentRunner } from './subagent-service.js';
