import type { ApprovalRequest } from '../../contract/gates.js';
import type { RuleSuggestion } from '../../contract/permission.js';
import { ruleAllowsAnyCode } from '../../permissions/rule-allows-any-code.js';

/** One choice of the permission dialog; `key` is what the person types to pick it. */
export type ApprovalOption =
  | { readonly kind: 'allow-once'; readonly key: string; readonly label: string }
  | {
      readonly kind: 'allow-always';
      readonly key: string;
      readonly label: string;
      readonly suggestion: RuleSuggestion;
      readonly detail: string;
      /** Why the rule it saves allows any code (`Bash(python:*)`), shown as a warning. */
      readonly allowsAnyCode?: string;
    }
  | { readonly kind: 'edit'; readonly key: string; readonly label: string }
  | { readonly kind: 'deny'; readonly key: string; readonly label: string }
  | { readonly kind: 'abort'; readonly key: string; readonly label: string };

const SCOPES: Readonly<Record<RuleSuggestion['destination'], string>> = {
  session: 'for this session only',
  localSettings: 'in local project settings (.toolplane/settings.local.json)',
  projectSettings: 'in project settings (.toolplane/settings.json, shared)',
  userSettings: 'in user settings (~/.toolplane/settings.json, every project)',
};

/** Human words for where a remembered rule is saved. */
export function describeScope(destination: RuleSuggestion['destination']): string {
  return SCOPES[destination];
}

/**
 * The dialog's choices in order, numbered from 1: allow once; one "always allow" per allow
 * suggestion (its scope, the exact rule it saves and what that covers, and a warning when that
 * rule allows any code); edit the input; deny with a message; abort the turn. Suggestions to deny or ask are not offered as "allow" choices.
 */
export function approvalOptions(request: Pick<ApprovalRequest, 'suggestions'>): readonly ApprovalOption[] {
  const options: ApprovalOption[] = [];
  const key = () => String(options.length + 1);
  options.push({ kind: 'allow-once', key: key(), label: 'Yes, allow this call once' });
  for (const suggestion of request.suggestions) {
    if (suggestion.behavior !== 'allow') continue;
    const anyCode = ruleAllowsAnyCode(suggestion.rule);
    options.push({
      kind: 'allow-always',
      key: key(),
      label: `Yes, and always allow ${describeScope(suggestion.destination)}`,
      suggestion,
      detail: `saves rule ${suggestion.rule}${suggestion.covers ? ` — covers ${suggestion.covers}` : ''}`,
      ...(anyCode === undefined ? {} : { allowsAnyCode: anyCode }),
    });
  }
  options.push({ kind: 'edit', key: key(), label: 'Edit the input, then allow (checked again)' });
  options.push({ kind: 'deny', key: key(), label: 'No, and tell the model why' });
  options.push({ kind: 'abort', key: key(), label: 'No, and stop the turn' });
  return options;
}
