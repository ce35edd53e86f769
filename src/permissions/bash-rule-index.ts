import type { CompiledRule } from './rule-set.js';

/**
 * Bash rule lookup: rules indexed by their literal first word, so a command is tested only
 * against the rules that could match it, and the first rule in settings order wins.
 */

type BashRuleIndex = {
  readonly byFirstWord: ReadonlyMap<string, readonly CompiledRule[]>;
  readonly wild: readonly CompiledRule[];
  readonly order: ReadonlyMap<CompiledRule, number>;
};

const indexes = new WeakMap<readonly CompiledRule[], BashRuleIndex>();

/** Indexes Bash rules by their literal first word so a command is tested only against rules that could match it. */
function indexOf(rules: readonly CompiledRule[]): BashRuleIndex {
  const known = indexes.get(rules);
  if (known) return known;
  const byFirstWord = new Map<string, CompiledRule[]>();
  const wild: CompiledRule[] = [];
  const order = new Map<CompiledRule, number>();
  rules.forEach((rule, position) => {
    if (rule.parsed.kind !== 'bash') return;
    order.set(rule, position);
    const word = rule.parsed.pattern.firstWord;
    if (word === undefined) {
      wild.push(rule);
      return;
    }
    // Appended in place: copying the list for each rule made 30,000 rules sharing a first word quadratic.
    const list = byFirstWord.get(word);
    if (list) list.push(rule);
    else byFirstWord.set(word, [rule]);
  });
  const index = { byFirstWord, wild, order };
  indexes.set(rules, index);
  return index;
}

/** The first rule (in settings order) whose pattern matches one of the forms. */
export function matchBash(
  rules: readonly CompiledRule[],
  forms: readonly string[],
  options: { readonly exactOnly: boolean },
): CompiledRule | undefined {
  if (rules.length === 0) return undefined;
  const index = indexOf(rules);
  let best: CompiledRule | undefined;
  let bestPosition = Number.POSITIVE_INFINITY;
  const consider = (candidates: readonly CompiledRule[] | undefined, form: string): void => {
    for (const rule of candidates ?? []) {
      if (rule.parsed.kind !== 'bash') continue;
      const position = index.order.get(rule) ?? Number.POSITIVE_INFINITY;
      if (position >= bestPosition) break;
      if (options.exactOnly && !rule.parsed.pattern.exact) continue;
      if (rule.parsed.pattern.test(form)) {
        best = rule;
        bestPosition = position;
        break;
      }
    }
  };
  for (const form of forms) {
    const space = form.indexOf(' ');
    consider(index.byFirstWord.get(space < 0 ? form : form.slice(0, space)), form);
    consider(index.wild, form);
  }
  return best;
}
