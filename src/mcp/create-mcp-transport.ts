import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig, StringTable } from './mcp-config.js';

/**
 * Variables a stdio server inherits from the host when its config does not set them: what a
 * program needs to find binaries, a home folder, a temp folder and a locale. Nothing else is
 * inherited, so model-provider credentials (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, …) and other
 * secrets in the host's environment never reach a server unless its config names them.
 */
export const MCP_SAFE_BASE_ENV: readonly string[] =
  process.platform === 'win32'
    ? [
        'APPDATA',
        'COMSPEC',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PATHEXT',
        'PROCESSOR_ARCHITECTURE',
        'PROGRAMFILES',
        'SYSTEMDRIVE',
        'SYSTEMROOT',
        'TEMP',
        'TMP',
        'USERNAME',
        'USERPROFILE',
        'WINDIR',
      ]
    : ['HOME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'TMPDIR', 'TZ', 'USER'];

/** Options for {@link buildServerEnv}. */
export type BuildServerEnvOptions = {
  /** The variables the server's config gives; they win over the base. */
  readonly configured: StringTable;
  /** The host's environment, from which only {@link MCP_SAFE_BASE_ENV} is taken. */
  readonly baseEnv: Readonly<Record<string, string | undefined>>;
};

/** The exact environment a stdio server is started with: the safe base plus its configured variables. */
export function buildServerEnv(options: BuildServerEnvOptions): Record<string, string> {
  const env: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const key of MCP_SAFE_BASE_ENV) {
    const value = Object.hasOwn(options.baseEnv, key) ? options.baseEnv[key] : undefined;
    // Exported shell functions (`() { …`) are skipped: they are code, not configuration.
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  for (const [key, value] of Object.entries(options.configured)) env[key] = value;
  return env;
}

/** How many characters of a stdio server's stderr are kept to explain a failure. */
const STDERR_TAIL_CHARS = 2_000;

/** A transport plus what it tells about why it stopped. */
export type McpTransportHandle = {
  readonly transport: Transport;
  /** The last lines the server wrote to stderr (stdio only), trimmed; empty if none. */
  stderrTail(): string;
};

/** Options for {@link createMcpTransport}. */
export type CreateMcpTransportOptions = {
  readonly config: McpServerConfig;
  readonly baseEnv: Readonly<Record<string, string | undefined>>;
  /** Folder a stdio server starts in when its config names none. */
  readonly cwd: string | undefined;
  /** The largest message a stdio server may send, in bytes (default: the SDK's, 10 MiB). */
  readonly maxMessageBytes?: number;
};

/**
 * Builds the SDK transport for a server config: stdio (a subprocess started without a shell, with
 * {@link buildServerEnv}'s environment and stderr captured), streamable HTTP, or HTTP+SSE, with
 * the configured headers on every request.
 */
export function createMcpTransport(options: CreateMcpTransportOptions): McpTransportHandle {
  const { config } = options;
  switch (config.type) {
    case 'stdio': {
      const cwd = config.cwd ?? options.cwd;
      const transport = new StdioClientTransport({
        command: config.command,
        args: [...config.args],
        env: buildServerEnv({ configured: config.env, baseEnv: options.baseEnv }),
        stderr: 'pipe',
        ...(cwd === undefined ? {} : { cwd }),
        ...(options.maxMessageBytes === undefined ? {} : { maxBufferSize: options.maxMessageBytes }),
      });
      let tail = '';
      // Always drained: a full stderr pipe would block the server.
      transport.stderr?.on('data', (chunk: Buffer | string) => {
        tail = (tail + chunk.toString()).slice(-STDERR_TAIL_CHARS);
      });
      return { transport, stderrTail: () => tail.trim() };
    }
    case 'http':
      return {
        transport: new StreamableHTTPClientTransport(new URL(config.url), {
          requestInit: { headers: { ...config.headers } },
        }),
        stderrTail: () => '',
      };
    case 'sse':
      return {
        transport: new SSEClientTransport(new URL(config.url), { requestInit: { headers: { ...config.headers } } }),
        stderrTail: () => '',
      };
    case 'sdk':
      return { transport: config.connect(), stderrTail: () => '' };
  }
}
