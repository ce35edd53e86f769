import type { DecisionReason, RuleSuggestion } from '../contract/permission.js';
import type { CompiledRule } from './rule-set.js';

/**
 * What the rules, the safety checks and the built-in knowledge say about one call, before the
 * hook verdict, the tool's own check and the mode are folded in by the engine.
 */
export type Evaluation = {
  /** A deny rule covers the call. */
  readonly deny?: { readonly message: string; readonly reason: DecisionReason };
  /** A safety check: never auto-approved (`bypassable`: bypass mode may still run it). */
  readonly safety?: { readonly message: string; readonly bypassable: boolean };
  /** An ask rule covers the call. */
  readonly ask?: { readonly message: string; readonly reason: DecisionReason };
  /** Allow rules or the built-in read-only knowledge approve every part of the call. */
  readonly approved?: DecisionReason;
  /** acceptEdits mode would approve the call (edits inside the working folders). */
  readonly acceptEdits: boolean;
  /** The call only reads (plan mode lets these through). */
  readonly readOnly: boolean;
  /** Rules an "always allow" would save, for an ask. */
  readonly suggestions: readonly RuleSuggestion[];
  /** What still needs approval, in words, for the ask message. */
  readonly pending: readonly string[];
};

/** The reason carried by a decision a rule made. */
export function ruleReason(rule: CompiledRule): DecisionReason {
  const { entry } = rule;
  return entry.file === undefined
    ? { kind: 'rule', rule: entry.rule, source: entry.source }
    : { kind: 'rule', rule: entry.rule, source: entry.source, file: entry.file };
}

/** Where a rule came from, in words. */
export function ruleOrigin(rule: CompiledRule): string {
  return rule.entry.file ?? `${rule.entry.source} settings`;
}

/** The model-facing text of a deny by rule: what happened and what to do next. */
export function denyMessage(toolName: string, rule: CompiledRule, what?: string): string {
  const subject = what ? `${toolName} (${what})` : toolName;
  return `Permission to use ${subject} has been denied by rule ${rule.entry.rule} from ${ruleOrigin(rule)}. Do not retry this call; take another approach, or ask the user to change the rule.`;
}

/** The person-facing text of an ask by rule. */
export function askMessage(toolName: string, rule: CompiledRule, what?: string): string {
  const subject = what ? `${toolName} (${what})` : toolName;
  return `${subject} needs approval: rule ${rule.entry.rule} from ${ruleOrigin(rule)} asks for it.`;
}

/** A mutable accumulator for one evaluation; the first deny, safety and ask found are kept. */
export class EvaluationBuilder {
  deny: Evaluation['deny'];
  safety: { message: string; bypassable: boolean } | undefined;
  ask: Evaluation['ask'];
  approved: DecisionReason | undefined;
  acceptEdits = true;
  readOnly = true;
  readonly suggestions: RuleSuggestion[] = [];
  readonly pending: string[] = [];

  denyBy(toolName: string, rule: CompiledRule, what?: string): void {
    this.deny ??= { message: denyMessage(toolName, rule, what), reason: ruleReason(rule) };
  }

  askBy(toolName: string, rule: CompiledRule, what?: string): void {
    this.ask ??= { message: askMessage(toolName, rule, what), reason: ruleReason(rule) };
  }

  unsafe(message: string, options: { readonly bypassable: boolean }): void {
    if (this.safety === undefined) this.safety = { message, bypassable: options.bypassable };
    else if (!options.bypassable && this.safety.bypassable) this.safety = { message, bypassable: false };
  }

  suggest(suggestion: RuleSuggestion): void {
    if (this.suggestions.length >= 5 || this.suggestions.some((known) => known.rule === suggestion.rule)) return;
    this.suggestions.push(suggestion);
  }

  build(): Evaluation {
    return {
      ...(this.deny ? { deny: this.deny } : {}),
      ...(this.safety ? { safety: this.safety } : {}),
      ...(this.ask ? { ask: this.ask } : {}),
      ...(this.approved ? { approved: this.approved } : {}),
      acceptEdits: this.acceptEdits,
      readOnly: this.readOnly,
      suggestions: this.suggestions,
      pending: this.pending,
    };
  }
}
