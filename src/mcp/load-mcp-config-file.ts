import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { describeError } from '../errors/toolplane-error.js';
import { parseMcpConfigText } from './mcp-config.js';
import type { ParsedMcpConfig } from './mcp-config.js';

/** Options for {@link loadMcpConfigFile}. */
export type LoadMcpConfigFileOptions = {
  /** Path of a `.mcp.json` or `--mcp-config` file. */
  readonly file: string;
  /** Variables for `${VAR}` expansion. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * `true` for files that may be absent (`.mcp.json` in a project without MCP servers): absence
   * gives no servers and no issue. `false` (a `--mcp-config` the person named) reports absence.
   */
  readonly optional: boolean;
  readonly signal: AbortSignal;
};

/**
 * Reads and parses an MCP config file (`{"mcpServers": {...}}`). A missing or unreadable file is
 * an issue naming the file (or nothing, for an optional file that does not exist), never a throw;
 * only an abort of `signal` rejects.
 */
export async function loadMcpConfigFile(options: LoadMcpConfigFileOptions): Promise<ParsedMcpConfig> {
  let text: string;
  try {
    text = await readFile(options.file, { encoding: 'utf8', signal: options.signal });
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason ?? error;
    const code = (error as { code?: unknown }).code;
    // An empty folder is the sandbox's stand-in for a missing .mcp.json while a command runs.
    if (options.optional && (code === 'ENOENT' || (code === 'EISDIR' && isEmptyFolder(options.file))))
      return { servers: new Map(), issues: [] };
    const message = code === 'ENOENT' ? 'file not found' : `could not be read: ${describeError(error)}`;
    return { servers: new Map(), issues: [{ file: options.file, message }] };
  }
  return parseMcpConfigText({ text, file: options.file, env: options.env });
}

function isEmptyFolder(folder: string): boolean {
  try {
    return readdirSync(folder).length === 0;
  } catch {
    return false;
  }
}
