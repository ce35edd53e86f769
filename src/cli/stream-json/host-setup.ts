import type { RunArguments } from '../args.js';
import type { RuntimeHost } from '../runtime/create-runtime.js';
import type { McpServerConfig } from '../../mcp/mcp-config.js';
import type { ControlChannel } from './control-channel.js';
import { agentTypesOf, customSystemPrompt, type InitializeRequest } from './initialize-request.js';
import { unsupportedHookEventMessage } from '../../contract/hook-config.js';
import { createSdkHooks } from './sdk-hooks.js';
import { SdkMcpTransport } from './sdk-mcp-transport.js';

/** What an `initialize` request sets up: the host's parts, the run's arguments with its options in, and the answer. */
export type HostSetup = {
  readonly host: RuntimeHost;
  readonly args: RunArguments;
  /** The live transport of each SDK MCP server, for the messages its server sends on its own. */
  readonly transports: Map<string, SdkMcpTransport>;
  readonly notices: readonly string[];
  /** The `*_applied` fields of the answer, for the options the request carried. */
  readonly applied: Readonly<Record<string, boolean>>;
};

/**
 * Reads an `initialize` request into the runtime's host parts: hooks that call back, in-process
 * MCP servers reached over `mcp_message`, agents as subagent types, and the options the SDK sends
 * in the request rather than as flags (system prompt, JSON schema, settings, disallowed tools,
 * MCP servers). Each one it carried is confirmed as applied in the answer; `managedSettings`
 * cannot be applied here and is confirmed as not applied, which the SDK treats as fatal.
 */
export function setUpHost(request: InitializeRequest, args: RunArguments, channel: ControlChannel): HostSetup {
  const notices: string[] = [];
  const applied: Record<string, boolean> = {};
  const transports = new Map<string, SdkMcpTransport>();
  const hooks = createSdkHooks(request.hooks ?? {}, channel);
  for (const event of hooks.unsupportedEvents) notices.push(`the host's hooks: ${unsupportedHookEventMessage(event)}`);
  if (request.hooks !== undefined) applied.hooks_applied = true;
  const mcpServers = new Map<string, McpServerConfig>();
  for (const name of request.sdkMcpServers ?? []) {
    mcpServers.set(name, {
      type: 'sdk',
      defer: false,
      alwaysLoad: [],
      connect: () => {
        const transport = new SdkMcpTransport(channel, name);
        transports.set(name, transport);
        return transport;
      },
    });
  }
  const agents = agentTypesOf(request);
  notices.push(...agents.notices);
  let next: RunArguments = args;
  const system = customSystemPrompt(request);
  if (system !== undefined) next = { ...next, systemPrompt: system };
  if (request.appendSystemPrompt !== undefined)
    next = {
      ...next,
      appendSystemPrompt: [args.appendSystemPrompt, request.appendSystemPrompt].filter(Boolean).join('\n\n'),
    };
  if (request.jsonSchema !== undefined) next = { ...next, jsonSchema: JSON.stringify(request.jsonSchema) };
  if (request.settings !== undefined && args.settings === undefined) {
    next = { ...next, settings: JSON.stringify(request.settings) };
    applied.settings_applied = true;
  } else if (request.settings !== undefined) {
    notices.push('the settings of the initialize request are not applied: --settings was given too');
    applied.settings_applied = false;
  }
  if (request.disallowedTools !== undefined) {
    next = { ...next, disallowedTools: [...next.disallowedTools, ...request.disallowedTools] };
    applied.disallowed_tools_applied = true;
  }
  if (request.mcpServers !== undefined) {
    next = { ...next, mcpConfig: [...next.mcpConfig, JSON.stringify({ mcpServers: request.mcpServers })] };
    applied.mcp_servers_applied = true;
  }
  if (request.managedSettings !== undefined) applied.managed_settings_applied = false;
  return {
    host: { functionHooks: hooks.hooks, mcpServers, agentTypes: agents.types },
    args: next,
    transports,
    notices,
    applied,
  };
}
