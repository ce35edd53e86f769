import { join, resolve } from 'node:path';
import type { LoadedSettings } from '../../settings/load-settings.js';
import { parseSettingsText } from '../../settings/parse-settings-text.js';
import {
  hashContent,
  heldRecord,
  holdKey,
  readHoldTable,
  readText,
  type HoldRecord,
} from '../../settings/settings-holds.js';
import { settingsPaths } from '../../settings/settings-paths.js';
import { isInlineJson } from './inline-json.js';

/** A settings or MCP configuration file that a tool call wrote, waiting for a person. */
export type HeldConfigFile = {
  readonly file: string;
  readonly record: HoldRecord;
  /** What applying it would loosen, one item per line ("allow Bash(curl:*)", "MCP server x: node x.js"). */
  readonly loosens: readonly string[];
};

/**
 * Every file a session's policy is built from that a tool call might rewrite: the user's and the
 * project's settings, `.mcp.json`, the trust store, and the files named by `--settings` and
 * `--mcp-config`.
 */
export function watchedConfigFiles(options: {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  readonly settingsFlag: string | undefined;
  readonly mcpConfigFiles: readonly string[];
}): readonly string[] {
  const paths = settingsPaths(options);
  const flag = options.settingsFlag?.trim();
  return [
    paths.userSettings,
    paths.projectSettings,
    paths.localSettings,
    paths.claude.userSettings,
    paths.claude.projectSettings,
    paths.claude.localSettings,
    join(options.cwd, '.mcp.json'),
    paths.trustStore,
    ...(flag !== undefined && flag !== '' && !isInlineJson(flag) ? [resolve(options.cwd, flag)] : []),
    ...options.mcpConfigFiles.filter((file) => !isInlineJson(file)).map((file) => resolve(options.cwd, file)),
  ];
}

/** Whether this MCP configuration file's current content is held; its text either way. */
export async function mcpConfigHold(options: {
  readonly file: string;
  readonly holdsFile: string;
  readonly signal?: AbortSignal;
}): Promise<{ readonly text: string | undefined; readonly record: HoldRecord | undefined }> {
  const [holds, text] = await Promise.all([
    readHoldTable(options.holdsFile, options.signal),
    readText(options.file, options.signal),
  ]);
  return { text, record: heldRecord(holds, await holdKey(options.file), hashContent(text)) };
}

/**
 * The held files a person should be asked about at the start of an interactive session: held
 * settings files, and a held `.mcp.json` or `--mcp-config` file. Project files of a folder that
 * is not trusted are left out (they apply only their deny and ask rules anyway).
 */
export async function heldConfigFiles(options: {
  readonly settings: LoadedSettings;
  readonly cwd: string;
  readonly mcpConfigFiles: readonly string[];
  readonly holdsFile: string;
}): Promise<readonly HeldConfigFile[]> {
  const trusted = options.settings.projectTrust === 'trusted';
  const out: HeldConfigFile[] = [];
  for (const held of options.settings.heldFiles) {
    if (!trusted && (held.source === 'projectSettings' || held.source === 'localSettings')) continue;
    out.push({ file: held.file, record: held.record, loosens: settingsLoosening(await readText(held.file)) });
  }
  const mcpFiles = [
    ...(trusted ? [join(options.cwd, '.mcp.json')] : []),
    ...options.mcpConfigFiles.filter((file) => !isInlineJson(file)).map((file) => resolve(options.cwd, file)),
  ];
  for (const file of mcpFiles) {
    const { text, record } = await mcpConfigHold({ file, holdsFile: options.holdsFile });
    if (record !== undefined) out.push({ file, record, loosens: mcpLoosening(text) });
  }
  return out;
}

/** What a settings text would loosen, in words. */
export function settingsLoosening(text: string | undefined): readonly string[] {
  if (text === undefined) return ['(the file was deleted: confirming drops the deny and ask rules it had)'];
  let settings;
  try {
    settings = parseSettingsText(text, 'settings').settings;
  } catch {
    return ['(the file cannot be read as settings)'];
  }
  const permissions = settings.permissions;
  return [
    ...(permissions?.allow ?? []).map((rule) => `allow ${rule}`),
    ...(permissions?.defaultMode === undefined ? [] : [`defaultMode ${permissions.defaultMode}`]),
    ...(permissions?.additionalDirectories ?? []).map((folder) => `additional directory ${folder}`),
    ...Object.entries(settings.hooks ?? {}).flatMap(([event, matchers]) =>
      matchers.flatMap((matcher) =>
        matcher.hooks.map((hook) => `${event} hook: ${hook.command ?? hook.url ?? hook.type}`),
      ),
    ),
    ...Object.keys(settings.mcpServers ?? {}).map((name) => `MCP server ${name}`),
    ...Object.keys(settings.env ?? {}).map((name) => `env ${name}`),
  ];
}

/** What an MCP configuration text would start, in words. */
export function mcpLoosening(text: string | undefined): readonly string[] {
  if (text === undefined) return ['(the file was deleted)'];
  try {
    const value = JSON.parse(text) as {
      mcpServers?: Record<string, { command?: unknown; args?: unknown; url?: unknown }>;
    };
    return Object.entries(value.mcpServers ?? {}).map(([name, server]) => {
      const command =
        typeof server.command === 'string'
          ? [server.command, ...(Array.isArray(server.args) ? server.args.map(String) : [])].join(' ')
          : String(server.url ?? '');
      return `MCP server ${name}: ${command}`;
    });
  } catch {
    return ['(the file is not valid JSON)'];
  }
}
