import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import { describeError } from '../errors/toolplane-error.js';
import { expandEnvVars } from './expand-env-vars.js';
import { mcpServerNameProblem } from './mcp-tool-name.js';

/** A string table parsed from config, with no prototype so keys like `__proto__` stay data. */
export type StringTable = Readonly<Record<string, string>>;

/** Settings shared by every transport: toolplane's own keys, ignored by other clients. */
type CommonServerConfig = {
  /** Time limit of one tool call on this server, in ms (`timeout` in the file). */
  readonly timeoutMs?: number;
  /** `false` loads this server's tools upfront instead of behind ToolSearch. Default `true`. */
  readonly defer: boolean;
  /** Tool names (as the server names them) that are always loaded upfront. */
  readonly alwaysLoad: readonly string[];
};

/** A server run as a subprocess, spoken to over stdin/stdout. */
export type McpStdioServerConfig = CommonServerConfig & {
  readonly type: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** Exactly the variables the config gives; the connection adds only a minimal safe base. */
  readonly env: StringTable;
  readonly cwd?: string;
};

/** A remote server over streamable HTTP (`http`) or the older HTTP+SSE transport (`sse`). */
export type McpRemoteServerConfig = CommonServerConfig & {
  readonly type: 'http' | 'sse';
  readonly url: string;
  readonly headers: StringTable;
};

/**
 * A server that lives in the host's own process (an Agent SDK host's `createSdkMcpServer`),
 * reached through a transport the host provides. Never read from a file.
 */
export type McpHostedServerConfig = CommonServerConfig & {
  readonly type: 'sdk';
  /** A new transport to the server, for each connection. */
  readonly connect: () => Transport;
};

/** One server's configuration, after validation and `${VAR}` expansion. */
export type McpServerConfig = McpStdioServerConfig | McpRemoteServerConfig | McpHostedServerConfig;

/** A problem found in a config file; the server it names (if any) is left out, the rest load. */
export type McpConfigIssue = {
  readonly file: string;
  readonly server?: string;
  readonly message: string;
};

/** The servers of one file (or settings key), with the problems found in it. */
export type ParsedMcpConfig = {
  readonly servers: ReadonlyMap<string, McpServerConfig>;
  readonly issues: readonly McpConfigIssue[];
};

const stringTable = z.record(z.string(), z.string());
const common = {
  timeout: z.number().int().positive().optional(),
  defer: z.boolean().optional(),
  alwaysLoad: z.array(z.string()).optional(),
};
const stdioSchema = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: stringTable.optional(),
  cwd: z.string().min(1).optional(),
  ...common,
});
const remoteSchema = z.looseObject({
  type: z.enum(['http', 'sse']),
  url: z.string().min(1),
  headers: stringTable.optional(),
  ...common,
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own entries of a validated table, copied into an object without a prototype. */
function toTable(raw: unknown, expand: (text: string) => string): StringTable {
  const table: Record<string, string> = Object.create(null) as Record<string, string>;
  if (!isRecord(raw)) return table;
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value === 'string') table[key] = expand(value);
  }
  return table;
}

function formatZodIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

type ServerParse =
  { readonly ok: true; readonly config: McpServerConfig } | { readonly ok: false; readonly problem: string };

function parseServer(raw: unknown, env: Readonly<Record<string, string | undefined>>): ServerParse {
  if (!isRecord(raw))
    return { ok: false, problem: 'must be an object with "command" (stdio) or "type" and "url" (http, sse)' };
  const type = raw['type'];
  const missing = new Set<string>();
  const expand = (text: string): string => {
    const expansion = expandEnvVars(text, env);
    for (const name of expansion.missing) missing.add(name);
    return expansion.value;
  };
  let config: McpServerConfig;
  if (type === undefined || type === 'stdio') {
    if (raw['command'] === undefined && raw['url'] !== undefined) {
      return { ok: false, problem: 'has "url" but no "type": add "type": "http" (streamable HTTP) or "type": "sse"' };
    }
    const parsed = stdioSchema.safeParse(raw);
    if (!parsed.success) return { ok: false, problem: formatZodIssues(parsed.error) };
    const cwd = parsed.data.cwd === undefined ? undefined : expand(parsed.data.cwd);
    config = {
      type: 'stdio',
      command: expand(parsed.data.command),
      args: (parsed.data.args ?? []).map(expand),
      env: toTable(raw['env'], expand),
      ...(cwd === undefined ? {} : { cwd }),
      ...commonFields(parsed.data),
    };
  } else if (type === 'http' || type === 'sse') {
    const parsed = remoteSchema.safeParse(raw);
    if (!parsed.success) return { ok: false, problem: formatZodIssues(parsed.error) };
    const url = expand(parsed.data.url);
    if (missing.size > 0) return missingProblem(missing);
    if (!URL.canParse(url)) return { ok: false, problem: `url ${JSON.stringify(url)} is not a valid URL` };
    const protocol = new URL(url).protocol;
    if (protocol !== 'http:' && protocol !== 'https:')
      return { ok: false, problem: `url must be http: or https:, not ${protocol}` };
    config = { type: parsed.data.type, url, headers: toTable(raw['headers'], expand), ...commonFields(parsed.data) };
  } else {
    return { ok: false, problem: `unknown type ${JSON.stringify(type)}: use "stdio", "http" or "sse"` };
  }
  if (missing.size > 0) return missingProblem(missing);
  return { ok: true, config };
}

function missingProblem(missing: ReadonlySet<string>): ServerParse {
  const names = [...missing];
  const plural = names.length > 1;
  return {
    ok: false,
    problem: `environment variable${plural ? 's' : ''} ${names.join(', ')} not set: set ${plural ? 'them' : 'it'} or give a default as \${NAME:-value}`,
  };
}

function commonFields(data: {
  timeout?: number | undefined;
  defer?: boolean | undefined;
  alwaysLoad?: string[] | undefined;
}): CommonServerConfig {
  return {
    ...(data.timeout === undefined ? {} : { timeoutMs: data.timeout }),
    defer: data.defer ?? true,
    alwaysLoad: data.alwaysLoad ?? [],
  };
}

/** Options for {@link parseMcpServers}. */
export type ParseMcpServersOptions = {
  /** The `mcpServers` object: server name → server config. Unknown until parsed. */
  readonly servers: unknown;
  /** The file it came from, named in every issue. */
  readonly file: string;
  /** Variables for `${VAR}` expansion (usually the process environment). */
  readonly env: Readonly<Record<string, string | undefined>>;
};

/**
 * Validates an `mcpServers` object (from `.mcp.json`, a settings file or `--mcp-config`) in the
 * reference system's shape: `{"name": {"command", "args", "env", "cwd"} | {"type": "http" | "sse",
 * "url", "headers"}}`, expanding `${VAR}` and `${VAR:-default}` in command, args, env, cwd, url
 * and headers. Unknown keys are ignored so configs written for other clients load. A server with
 * a problem is left out and reported with the file and its name; the others still load. A name
 * that would make tool names ambiguous (`docs__admin`, see `mcpServerNameProblem`) is a problem.
 */
export function parseMcpServers(options: ParseMcpServersOptions): ParsedMcpConfig {
  const servers = new Map<string, McpServerConfig>();
  const issues: McpConfigIssue[] = [];
  if (!isRecord(options.servers)) {
    issues.push({
      file: options.file,
      message: '"mcpServers" must be an object mapping server names to server configs',
    });
    return { servers, issues };
  }
  for (const [name, raw] of Object.entries(options.servers)) {
    if (name.length === 0) {
      issues.push({ file: options.file, server: name, message: 'a server name must not be empty' });
      continue;
    }
    const nameProblem = mcpServerNameProblem(name);
    if (nameProblem !== undefined) {
      issues.push({ file: options.file, server: name, message: `${nameProblem}; the server is not started` });
      continue;
    }
    const result = parseServer(raw, options.env);
    if (result.ok) servers.set(name, result.config);
    else issues.push({ file: options.file, server: name, message: result.problem });
  }
  return { servers, issues };
}

/** Options for {@link parseMcpConfigText}. */
export type ParseMcpConfigTextOptions = {
  /** The file's text: `{"mcpServers": {...}}`. */
  readonly text: string;
  readonly file: string;
  readonly env: Readonly<Record<string, string | undefined>>;
};

/** Parses the text of a `.mcp.json` or `--mcp-config` file (`{"mcpServers": {...}}`). */
export function parseMcpConfigText(options: ParseMcpConfigTextOptions): ParsedMcpConfig {
  let value: unknown;
  try {
    value = JSON.parse(options.text);
  } catch (error) {
    return { servers: new Map(), issues: [{ file: options.file, message: `not valid JSON: ${describeError(error)}` }] };
  }
  if (!isRecord(value) || !Object.hasOwn(value, 'mcpServers')) {
    return {
      servers: new Map(),
      issues: [{ file: options.file, message: 'expected an object with an "mcpServers" key' }],
    };
  }
  return parseMcpServers({ servers: value['mcpServers'], file: options.file, env: options.env });
}

/** Formats an issue as one line: `file: server "name": message`. */
export function formatMcpConfigIssue(issue: McpConfigIssue): string {
  return issue.server === undefined
    ? `${issue.file}: ${issue.message}`
    : `${issue.file}: server ${JSON.stringify(issue.server)}: ${issue.message}`;
}
