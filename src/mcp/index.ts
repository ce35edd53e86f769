export { createMcpManager, type McpManager } from './mcp-manager.js';
export type {
  McpManagerEvent,
  McpManagerOptions,
  McpServerSnapshot,
  McpToolIdentity,
  McpResourceSummary,
} from './mcp-manager-types.js';
export type { McpServerState, McpReconnectPolicy } from './mcp-connection-types.js';
export {
  parseMcpServers,
  parseMcpConfigText,
  formatMcpConfigIssue,
  type McpServerConfig,
  type McpStdioServerConfig,
  type McpRemoteServerConfig,
  type McpConfigIssue,
  type ParsedMcpConfig,
  type StringTable,
} from './mcp-config.js';
export { loadMcpConfigFile, type LoadMcpConfigFileOptions } from './load-mcp-config-file.js';
export {
  mergeMcpConfigs,
  MCP_SCOPE_PRECEDENCE,
  type McpConfigScope,
  type McpConfigSource,
  type McpServerEntry,
  type McpServerOverride,
  type MergedMcpConfig,
} from './merge-mcp-configs.js';
export { expandEnvVars, type EnvExpansion } from './expand-env-vars.js';
export { buildServerEnv, MCP_SAFE_BASE_ENV } from './create-mcp-transport.js';
export {
  createMcpTool,
  DEFAULT_MCP_DESCRIPTION_CHARS,
  type CreateMcpToolOptions,
  type McpClientLookup,
} from './create-mcp-tool.js';
export { mapMcpResult, mapMcpOutput } from './map-mcp-result.js';
export {
  mcpToolName,
  assignMcpToolNames,
  type McpToolRef,
  type McpToolNameCollision,
  type McpToolNameAssignment,
} from './mcp-tool-name.js';
export { fingerprintMcpTool } from './fingerprint-mcp-tool.js';
export { summarizeMcpServers, type McpServerSummary } from './summarize-mcp-servers.js';
export type {
  McpResourceReader,
  McpResourceListing,
  McpResourceContent,
  McpUnavailableServer,
} from './mcp-resource-reader.js';
