import { parseCommandArgs } from './command-args.js';
import type { CommandIo } from '../headless.js';
import { loadCommandSettings } from './command-settings.js';
import { setUpMcp } from '../runtime/mcp-setup.js';

/**
 * `toolplane mcp list [--mcp-config FILE]… [--json] [--timeout MS]`: connects every configured
 * server (settings, `.mcp.json`, flags), waits until none is pending (or the timeout), and prints
 * each server with its state, tool count and, for a failed one, why. Like a run, it starts the
 * project's own servers (`.mcp.json`, project settings) only in a trusted folder: listing a
 * stranger's repository must not run the commands it names.
 */
export async function runMcpList(argv: readonly string[], io: CommandIo): Promise<number> {
  const values = parseCommandArgs(argv, {
    'mcp-config': { type: 'string', multiple: true },
    json: { type: 'boolean' },
    timeout: { type: 'string' },
    'trust-project': { type: 'boolean' },
  });
  const timeoutMs = values.timeout ? Number(values.timeout) : 15_000;
  const settings = await loadCommandSettings(io, { trustProject: values['trust-project'] });
  const signal = AbortSignal.timeout(timeoutMs);
  const setup = await setUpMcp({
    cwd: io.cwd,
    env: io.env,
    settings,
    configFiles: values['mcp-config'] ?? [],
    trusted: settings.projectTrust === 'trusted',
    signal: new AbortController().signal,
  });
  for (const issue of setup.issues) io.stderr.write(`mcp: ${issue}\n`);
  if (!setup.manager) {
    if (values.json) io.stdout.write('[]\n');
    else io.stdout.write('No MCP servers are configured (settings mcpServers, .mcp.json or --mcp-config).\n');
    return setup.issues.length > 0 ? 1 : 0;
  }
  try {
    await setup.manager.whenSettled({ signal });
    const servers = setup.manager.servers();
    if (values.json) {
      io.stdout.write(
        `${JSON.stringify(
          servers.map((server) => ({
            name: server.name,
            scope: server.scope,
            transport: server.transport,
            status: server.state.status,
            tools: server.toolNames.length,
            ...('reason' in server.state ? { reason: server.state.reason } : {}),
          })),
        )}\n`,
      );
    } else {
      for (const server of servers) {
        const reason = 'reason' in server.state ? ` — ${String(server.state.reason)}` : '';
        io.stdout.write(
          `${server.name}  ${server.transport}  ${server.state.status}  ${server.toolNames.length} tools${reason}\n`,
        );
      }
    }
    return servers.some((server) => server.state.status === 'failed') ? 1 : 0;
  } finally {
    await setup.manager.close();
  }
}
