import { readFile } from 'node:fs/promises';
import { parseSettingsText } from './parse-settings-text.js';
import { hashContent } from './settings-holds.js';
import { settingsPaths } from './settings-paths.js';
import { writeFileAtomic } from './write-file-atomic.js';

/** Options for {@link saveRule}. */
export type SaveRuleOptions = {
  /** Which settings file receives the rule. */
  readonly destination: 'localSettings' | 'projectSettings' | 'userSettings';
  readonly rule: string;
  readonly behavior: 'allow' | 'deny' | 'ask';
  /** The working folder (the project root). */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  readonly signal?: AbortSignal;
};

/**
 * Where the rule went and whether it was new, with the content hashes before and after (the
 * session's settings watch records the write as toolplane's own, see `SettingsWatch`).
 */
export type SaveRuleResult = {
  readonly file: string;
  readonly rule: string;
  readonly behavior: SaveRuleOptions['behavior'];
  readonly added: boolean;
  /** `hashContent` of the text the rule was added to (`absent` for a new file). */
  readonly previousHash: string;
  readonly previousText?: string;
  /** `hashContent` of the text now in the file. */
  readonly hash: string;
};

/** Saves in flight per file, so two saves in one process never lose each other's rule. */
const pending = new Map<string, Promise<unknown>>();

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function saveNow(options: SaveRuleOptions, file: string): Promise<SaveRuleResult> {
  let text = '';
  let existed = true;
  try {
    text = await readFile(file, { encoding: 'utf8', signal: options.signal });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    existed = false;
  }
  const previous = existed
    ? { previousHash: hashContent(text), previousText: text }
    : { previousHash: hashContent(undefined) };
  // Validates first: a file that cannot be read must not be overwritten and its rules lost.
  parseSettingsText(text, file);
  const document: Record<string, unknown> =
    text.trim() === ''
      ? (Object.create(null) as Record<string, unknown>)
      : (JSON.parse(text) as Record<string, unknown>);
  const permissions: Record<string, unknown> = isRecord(document['permissions'])
    ? document['permissions']
    : (Object.create(null) as Record<string, unknown>);
  const list = Array.isArray(permissions[options.behavior]) ? (permissions[options.behavior] as unknown[]) : [];
  const rule = options.rule.trim();
  if (list.includes(rule))
    return { file, rule, behavior: options.behavior, added: false, ...previous, hash: previous.previousHash };
  permissions[options.behavior] = [...list, rule];
  document['permissions'] = permissions;
  const written = `${JSON.stringify(document, null, 2)}\n`;
  await writeFileAtomic({ path: file, text: written, ...(options.signal ? { signal: options.signal } : {}) });
  return { file, rule, behavior: options.behavior, added: true, ...previous, hash: hashContent(written) };
}

/**
 * Adds a rule a person chose ("always allow", or deny) to the settings file of `destination`,
 * keeping every other key. The file is rewritten atomically (temporary file, then rename) and
 * `.toolplane/` is created when needed. A rule already present is not added twice. Throws
 * `ToolplaneError('SETTINGS_INVALID')` rather than overwrite a file it cannot parse.
 */
export async function saveRule(options: SaveRuleOptions): Promise<SaveRuleResult> {
  const paths = settingsPaths(options);
  const file =
    options.destination === 'userSettings'
      ? paths.userSettings
      : options.destination === 'projectSettings'
        ? paths.projectSettings
        : paths.localSettings;
  const previous = pending.get(file) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => saveNow(options, file));
  pending.set(file, next);
  try {
    return await next;
  } finally {
    if (pending.get(file) === next) pending.delete(file);
  }
}
