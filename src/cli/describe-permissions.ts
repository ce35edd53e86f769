import { describeReason, type PermissionMode, type PermissionRuleEntry } from '../contract/permission.js';

/** What `/permissions` lists: the mode, the rules loaded at the start and those chosen since, and the files read. */
export type PermissionsView = {
  readonly mode: PermissionMode;
  /** The rules the settings gave at the start, highest precedence first. */
  readonly loaded: readonly PermissionRuleEntry[];
  /** Rules a person chose in a dialog since ("always allow", a deny), oldest first. */
  readonly remembered: readonly PermissionRuleEntry[];
  /** The settings files read at the start. */
  readonly files: readonly { readonly path: string }[];
};

function sameRule(a: PermissionRuleEntry, b: PermissionRuleEntry): boolean {
  return a.rule === b.rule && a.behavior === b.behavior && a.source === b.source && a.file === b.file;
}

/**
 * The text of `/permissions`: the mode, then the deny, ask and allow rules in force with where
 * each comes from (a rule saved from a dialog in this session says so), then the settings files
 * in force — those read at the start and those a saved rule was written to. Pure.
 */
export function describePermissions(view: PermissionsView): string {
  const added = view.remembered.filter((entry) => !view.loaded.some((loaded) => sameRule(loaded, entry)));
  const rules = [...added, ...view.loaded];
  const lines = [`Permission mode: ${view.mode}`];
  for (const behavior of ['deny', 'ask', 'allow'] as const) {
    const shown = rules.filter((entry) => entry.behavior === behavior);
    lines.push(`${behavior} rules (${shown.length}):`);
    for (const entry of shown) {
      const where = describeReason({
        kind: 'rule',
        rule: entry.rule,
        source: entry.source,
        ...(entry.file ? { file: entry.file } : {}),
      });
      const saved = added.includes(entry)
        ? entry.source === 'session'
          ? ' (chosen in this session, until it ends)'
          : ' (saved from a dialog in this session)'
        : '';
      lines.push(`  ${entry.rule}    ${where}${saved}`);
    }
  }
  const files = [...view.files.map((file) => file.path)];
  for (const entry of added) if (entry.file !== undefined && !files.includes(entry.file)) files.push(entry.file);
  lines.push(`Settings files: ${files.join(', ') || '(none)'}`);
  return lines.join('\n');
}
