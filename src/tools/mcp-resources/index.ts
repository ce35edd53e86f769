export {
  listMcpResourcesTool,
  LIST_MCP_RESOURCES_NAME,
  type ListMcpResourcesInput,
  type ListMcpResourcesOutput,
} from './list-mcp-resources-tool.js';
export {
  readMcpResourceTool,
  READ_MCP_RESOURCE_NAME,
  type ReadMcpResourceInput,
  type ReadMcpResourceOutput,
} from './read-mcp-resource-tool.js';
export {
  mcpResourcesService,
  NO_MCP_MESSAGE,
  type McpResourceAccess,
  type McpResourceEntry,
  type McpResourcePart,
  type McpResourceFailure,
} from './mcp-resource-service.js';
