import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { RuleSource } from '../contract/permission.js';
import { ToolplaneError } from '../errors/toolplane-error.js';
import type { CliSettings, SettingScope } from './load-settings.js';
import { parseSettingsText, type SettingsFile, type SettingsWarning } from './parse-settings-text.js';
import { howToTrust } from './resolve-project-trust.js';
import {
  hashContent,
  heldRecord,
  holdKey,
  mergeKept,
  type HeldFile,
  type HoldRecord,
  type HoldTable,
} from './settings-holds.js';
import type { SettingsPaths } from './settings-paths.js';
import type { LoadedSource, SourceRestriction } from './settings-source.js';
import type { ProjectTrust } from './trust-store.js';

const SCOPES: Partial<Record<RuleSource, SettingScope>> = {
  userSettings: 'user',
  projectSettings: 'project',
  localSettings: 'local',
};

/** `candidate`, restricted to its deny and ask rules when `--setting-sources` leaves its scope out. */
function leftOutBySettingSources<T extends { readonly source: RuleSource; readonly restriction?: SourceRestriction }>(
  candidate: T,
  settingSources: CliSettings['settingSources'],
): T {
  const scope = SCOPES[candidate.source];
  if (settingSources === undefined || scope === undefined || settingSources.includes(scope)) return candidate;
  if (candidate.restriction !== undefined) return candidate;
  const restriction: SourceRestriction = {
    reason: `--setting-sources leaves out the ${scope} settings`,
    remedy: `name ${scope} in --setting-sources to apply them in full`,
  };
  return { ...candidate, restriction };
}

/** The settings sources of a run as read, highest precedence first, and those held after a tool call wrote them. */
export type ReadSources = {
  readonly sources: readonly LoadedSource[];
  readonly heldFiles: readonly (HeldFile & { readonly source: RuleSource })[];
};

/**
 * Reads every settings source of a run (managed policy, `--settings`, local project, shared
 * project, user — each scope's Claude Code file just below toolplane's) and parses it. A project's own files are restricted (deny and ask rules only) in
 * a folder nobody trusted; a file a tool call wrote and no person confirmed is restricted too and
 * keeps its earlier deny and ask rules. Parse problems that do not lose a rule go to `warnings`;
 * a file that cannot be read or parsed, or a `--settings FILE` that does not exist, throws
 * `SETTINGS_INVALID`.
 */
export async function readSettingsSources(options: {
  readonly cwd: string;
  readonly paths: SettingsPaths;
  readonly managedFile: string;
  readonly cli: CliSettings | undefined;
  readonly projectTrust: ProjectTrust;
  readonly holds: HoldTable;
  readonly warnings: SettingsWarning[];
  readonly signal: AbortSignal | undefined;
}): Promise<ReadSources> {
  const { cwd, paths, managedFile, signal } = options;
  const cliSettings = options.cli?.settings?.trim();
  const cliIsInline = cliSettings?.startsWith('{') ?? false;
  const cliFile = cliSettings !== undefined && !cliIsInline ? resolve(cwd, cliSettings) : undefined;
  const { claude } = paths;
  const cliRead =
    cliFile === undefined ? Promise.resolve(cliIsInline ? cliSettings : undefined) : readOptionalFile(cliFile, signal);
  const [managedText, cliText, localText, projectText, userText, claudeLocalText, claudeProjectText, claudeUserText] =
    await Promise.all([readOptionalFile(managedFile, signal), cliRead, ...readScopeFiles(paths, signal)]);
  if (cliFile !== undefined && cliText === undefined) {
    throw new ToolplaneError('SETTINGS_INVALID', `Settings file ${cliFile} given with --settings does not exist.`);
  }

  // A project's own files may tighten the policy, never loosen it, until the folder is trusted.
  const project =
    options.projectTrust === 'trusted'
      ? {}
      : { restriction: { reason: 'the project folder is not trusted', remedy: howToTrust(cwd) } };
  const candidates: (Omit<LoadedSource, 'settings'> & { text: string | undefined })[] = [
    { source: 'managed', label: managedFile, file: managedFile, root: cwd, text: managedText },
    cliIsInline
      ? { source: 'cli', label: '--settings (inline JSON)', root: cwd, text: cliText }
      : {
          source: 'cli',
          label: cliFile ?? '',
          ...(cliFile === undefined ? {} : { file: cliFile }),
          root: cliFile === undefined ? cwd : dirname(cliFile),
          text: cliText,
        },
    {
      source: 'localSettings',
      label: paths.localSettings,
      file: paths.localSettings,
      root: cwd,
      text: localText,
      ...project,
    },
    // Claude Code's file of each scope comes just below toolplane's own, with the same trust.
    {
      source: 'localSettings',
      label: claude.localSettings,
      file: claude.localSettings,
      root: cwd,
      text: claudeLocalText,
      claude: true,
      ...project,
    },
    {
      source: 'projectSettings',
      label: paths.projectSettings,
      file: paths.projectSettings,
      root: cwd,
      text: projectText,
      ...project,
    },
    {
      source: 'projectSettings',
      label: claude.projectSettings,
      file: claude.projectSettings,
      root: cwd,
      text: claudeProjectText,
      claude: true,
      ...project,
    },
    {
      source: 'userSettings',
      label: paths.userSettings,
      file: paths.userSettings,
      root: paths.userDir,
      text: userText,
    },
    {
      source: 'userSettings',
      label: claude.userSettings,
      file: claude.userSettings,
      root: dirname(claude.userSettings),
      text: claudeUserText,
      claude: true,
    },
  ];
  const sources: LoadedSource[] = [];
  const heldFiles: (HeldFile & { readonly source: RuleSource })[] = [];
  for (const { text, ...scoped } of candidates) {
    const candidate = leftOutBySettingSources(scoped, options.cli?.settingSources);
    // The managed policy is root's; inline JSON is the command line itself: neither is held.
    const held =
      candidate.file === undefined || candidate.source === 'managed'
        ? undefined
        : await heldFor(options.holds, candidate.file, text);
    if (text === undefined && held === undefined) continue;
    const parsed = text === undefined ? { settings: {}, warnings: [] } : parseSettingsText(text, candidate.label);
    options.warnings.push(...parsed.warnings);
    if (held === undefined || candidate.file === undefined) {
      sources.push({ ...candidate, settings: parsed.settings });
      continue;
    }
    heldFiles.push({ file: candidate.file, hash: held.hash, record: held.record, source: candidate.source });
    // An untrusted folder's restriction says more (trusting comes first); a held file keeps its
    // earlier deny and ask rules either way, so rewriting it cannot drop one.
    const restriction = candidate.restriction ?? heldRestriction(held.record);
    sources.push({ ...candidate, restriction, settings: withKeptRules(parsed.settings, held.record) });
  }
  return { sources, heldFiles };
}

async function readOptionalFile(path: string, signal?: AbortSignal): Promise<string | undefined> {
  try {
    return await readFile(path, { encoding: 'utf8', signal });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if ((error as Error).name === 'AbortError') throw error;
    throw new ToolplaneError('SETTINGS_INVALID', `Settings file ${path} cannot be read (${code ?? String(error)}).`, {
      cause: error,
    });
  }
}

async function heldFor(
  holds: HoldTable,
  file: string,
  text: string | undefined,
): Promise<{ hash: string; record: HoldRecord } | undefined> {
  const hash = hashContent(text);
  const record = heldRecord(holds, await holdKey(file), hash);
  return record === undefined ? undefined : { hash, record };
}

function heldRestriction(record: HoldRecord): SourceRestriction {
  const when = record.at.slice(0, 16).replace('T', ' ');
  const session = record.session === undefined ? '' : ` in session ${record.session}`;
  return {
    reason: `it was changed by a tool call${session} (${when} UTC) and is held until a person confirms it`,
    remedy:
      'the terminal UI (toolplane without -p) asks to confirm it when it next starts in this folder; its earlier deny and ask rules apply meanwhile',
  };
}

function withKeptRules(settings: SettingsFile, record: HoldRecord): SettingsFile {
  if (record.kept === undefined) return settings;
  const merged = mergeKept(
    { deny: settings.permissions?.deny ?? [], ask: settings.permissions?.ask ?? [] },
    record.kept,
  );
  return { ...settings, permissions: { ...settings.permissions, deny: [...merged.deny], ask: [...merged.ask] } };
}

/**
 * The texts of the six scope files: toolplane's local, project and user files, then Claude Code's.
 * With home as the project folder, its settings file is the user's, read once, as such.
 */
function readScopeFiles(paths: SettingsPaths, signal: AbortSignal | undefined): Promise<string | undefined>[] {
  const projectFile = (file: string, userFile: string) =>
    file === userFile ? Promise.resolve(undefined) : readOptionalFile(file, signal);
  const { claude } = paths;
  return [
    projectFile(paths.localSettings, paths.userSettings),
    projectFile(paths.projectSettings, paths.userSettings),
    readOptionalFile(paths.userSettings, signal),
    projectFile(claude.localSettings, claude.userSettings),
    projectFile(claude.projectSettings, claude.userSettings),
    readOptionalFile(claude.userSettings, signal),
  ];
}
