import { readFile, realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { PermissionRuleEntry } from '../../contract/permission.js';
import { forgetGrant, readGrants, type GrantRecord } from '../../settings/grant-records.js';
import type { LoadedSettings } from '../../settings/load-settings.js';
import { locateRule, revokeRule } from '../../settings/revoke-rule.js';
import { settingsPaths } from '../../settings/settings-paths.js';
import { UsageError } from '../args.js';
import type { CommandIo } from '../headless.js';
import { loadCommandSettings } from './command-settings.js';
import { parseCommandOperands } from './command-args.js';

/** One rule in force, as `permissions list` shows it. */
export type ListedRule = {
  readonly rule: string;
  readonly behavior: 'allow' | 'deny' | 'ask';
  readonly source: string;
  readonly file?: string;
  readonly line?: number;
  /** For a rule saved by "always allow" (or a deny chosen in a dialog): when, and in which session. */
  readonly granted?: { readonly at: string; readonly sessionId: string };
};

const FLAGS = {
  json: { type: 'boolean' },
  settings: { type: 'string' },
  'trust-project': { type: 'boolean' },
} as const;

/** Where each source's rules live, for a rule that cannot be revoked by editing a file. */
const UNREVOCABLE: Readonly<Record<string, string>> = {
  managed: 'it comes from the managed policy, which only its administrator can change',
  cli: 'it comes from the command line (--allowedTools, --disallowedTools or --settings JSON): leave it out of the next run',
  session: 'it was granted for one session only',
};

async function settingsHere(values: { settings?: string; 'trust-project'?: boolean }, io: CommandIo) {
  const settings = await loadCommandSettings(io, { settings: values.settings, trustProject: values['trust-project'] });
  for (const warning of settings.warnings) io.stderr.write(`warning: ${warning.file ?? ''}: ${warning.message}\n`);
  return settings;
}

/** Every rule of `settings` with the line it is written on and, for a saved one, its grant. */
async function listRules(settings: LoadedSettings, grants: readonly GrantRecord[]): Promise<ListedRule[]> {
  const texts = new Map<string, string | undefined>();
  const textOf = async (file: string) => {
    if (!texts.has(file)) texts.set(file, await readFile(file, 'utf8').catch(() => undefined));
    return texts.get(file);
  };
  const listed: ListedRule[] = [];
  for (const entry of settings.rules) {
    const text = entry.file === undefined ? undefined : await textOf(entry.file);
    const line =
      text === undefined
        ? undefined
        : locateRule(text, entry.rule).find((each) => each.behavior === entry.behavior)?.line;
    const grant = grants.find(
      (each) => each.rule === entry.rule.trim() && each.behavior === entry.behavior && each.file === entry.file,
    );
    listed.push({
      rule: entry.rule,
      behavior: entry.behavior,
      source: entry.source,
      ...(entry.file === undefined ? {} : { file: entry.file }),
      ...(line === undefined ? {} : { line }),
      ...(grant === undefined ? {} : { granted: { at: grant.grantedAt, sessionId: grant.sessionId } }),
    });
  }
  return listed;
}

function describe(rule: ListedRule): string {
  const where = rule.file === undefined ? rule.source : `${rule.file}${rule.line === undefined ? '' : `:${rule.line}`}`;
  const granted = rule.granted === undefined ? '' : `  granted ${rule.granted.at} in session ${rule.granted.sessionId}`;
  return `${rule.behavior.padEnd(5)}  ${rule.rule}  ${where}${rule.file === undefined ? '' : ` (${rule.source})`}${granted}`;
}

/**
 * `toolplane permissions list [--json] [--settings FILE|JSON] [--trust-project]`: every rule a
 * headless run in this folder would have in force, highest precedence first, with its file and
 * line, and for a rule a person saved from a dialog, when and in which session.
 */
export async function runPermissionsList(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, operands } = parseCommandOperands(argv, FLAGS);
  if (operands.length > 0) throw new UsageError(`permissions list takes no operand (${operands.join(' ')})`);
  const settings = await settingsHere(values, io);
  const grants = await readGrants(settingsPaths(io).grantedRules);
  const rules = await listRules(settings, grants);
  if (values.json) io.stdout.write(`${JSON.stringify(rules)}\n`);
  else if (rules.length === 0) io.stdout.write('No permission rules are in force here.\n');
  else for (const rule of rules) io.stdout.write(`${describe(rule)}\n`);
  return 0;
}

/** The flags of `permissions revoke`: no `--settings`, whose rules live on the command line. */
const REVOKE_FLAGS = { behavior: { type: 'string' }, file: { type: 'string' } } as const;

/** Why `entry` cannot be revoked by editing its file, or the line it is written on when it can. */
async function revocable(
  entry: PermissionRuleEntry,
  settings: LoadedSettings,
): Promise<{ readonly why: string } | { readonly line: number }> {
  if (entry.source === 'managed') return { why: UNREVOCABLE['managed']! };
  if (entry.file === undefined) return { why: UNREVOCABLE[entry.source] ?? 'it is not written in a file' };
  const real = await realpath(entry.file).catch(() => entry.file!);
  // Rewriting a held file would change its content hash and so release the tool call's edit unseen.
  if (settings.heldFiles.some((held) => held.file === entry.file || held.file === real))
    return {
      why: `${entry.file} was changed by a tool call and is held: confirm or undo that change first (the terminal UI asks at its next start)`,
    };
  const text = await readFile(entry.file, 'utf8').catch(() => '');
  const found = locateRule(text, entry.rule).find((each) => each.behavior === entry.behavior);
  return found === undefined
    ? { why: `it is no longer written in ${entry.file}: it is kept from before a tool call changed that file` }
    : { line: found.line };
}

/**
 * `toolplane permissions revoke RULE [--behavior allow|deny|ask] [--file FILE]`: removes the rule
 * from every settings file it is written in (or from `--file`), keeping each file's formatting,
 * and forgets its grant. Without `--behavior` only allow rules go: taking back a deny or ask rule
 * loosens the policy, so it must be asked for, and is said. A managed, command-line or session
 * rule, and one of a file a tool call changed (held), cannot be revoked; the message says why.
 * Exit code 1 when something asked for was not removed.
 */
export async function runPermissionsRevoke(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, operands } = parseCommandOperands(argv, REVOKE_FLAGS);
  if (operands.length !== 1) throw new UsageError('Usage: toolplane permissions revoke RULE [--behavior B] [--file F]');
  const rule = operands[0]!.trim();
  const behavior = values.behavior ?? 'allow';
  if (!['allow', 'deny', 'ask'].includes(behavior)) throw new UsageError('--behavior must be allow, deny or ask');
  const file = values.file === undefined ? undefined : resolve(io.cwd, values.file);
  const fileReal = file === undefined ? undefined : await realpath(file).catch(() => file);
  const settings = await loadCommandSettings(io, { trustProject: true });
  const matching: PermissionRuleEntry[] = [];
  for (const entry of settings.rules) {
    if (entry.rule.trim() !== rule || entry.behavior !== behavior) continue;
    const real = entry.file === undefined ? undefined : await realpath(entry.file).catch(() => entry.file);
    if (file === undefined || entry.file === file || real === fileReal) matching.push(entry);
  }
  if (matching.length === 0) {
    io.stderr.write(`toolplane: no ${behavior} rule ${rule} is in force here; see toolplane permissions list\n`);
    return 1;
  }
  const paths = settingsPaths(io);
  let status = 0;
  for (const entry of matching) {
    const checked = await revocable(entry, settings);
    if ('why' in checked) {
      io.stderr.write(`toolplane: ${entry.behavior} rule ${rule} cannot be revoked: ${checked.why}\n`);
      status = 1;
      continue;
    }
    const { line } = checked;
    await revokeRule({ file: entry.file!, rule, behavior: entry.behavior });
    await forgetGrant(paths.grantedRules, { rule, behavior: entry.behavior, file: entry.file! }).catch(() => undefined);
    const loosens =
      behavior === 'allow'
        ? ''
        : ` (the policy is looser: calls it ${behavior === 'deny' ? 'denied' : 'asked about'} are now decided by the other rules)`;
    io.stdout.write(`Removed ${behavior} rule ${rule} from ${entry.file}:${line}${loosens}\n`);
  }
  return status;
}
