import { z } from 'zod';
import { defineBuiltinTool } from '../../src/contract/define-builtin-tool.js';
import type { PermissionDecision, PermissionRuleEntry } from '../../src/contract/permission.js';
import { createServices } from '../../src/contract/services.js';
import { createPermissionEngine, initShellParser } from '../../src/permissions/index.js';

/**
 * The permission engine as the differential test sees it: a careful user's rules, the fixture's
 * working folder and home, default mode. A verdict says whether a command may run and how it was
 * approved, which decides what it may do.
 */

/** How the engine let a command through, or why not. */
export type Verdict =
  | { readonly kind: 'read-only' | 'rule'; readonly reason: string }
  | { readonly kind: 'ask' | 'deny'; readonly reason: string };

/** Decides one command (a filled-in template). */
export type Judge = (command: string) => Promise<Verdict>;

/** The rules of a careful user (issue 11's list): allows for their own tools, denies for secrets and curl. */
export const CAREFUL_RULES: readonly (readonly ['allow' | 'deny', string])[] = [
  ['allow', 'Bash(npm test:*)'],
  ['allow', 'Bash(git log:*)'],
  ['allow', 'Bash(git diff:*)'],
  ['allow', 'Bash(echo:*)'],
  ['allow', 'Edit(/src/**)'],
  ['deny', 'Read(./.env)'],
  ['deny', 'Read(~/.ssh/**)'],
  ['deny', 'Bash(curl:*)'],
];

/** The careful rules as entries of the project's settings. */
export function carefulRules(work: string): PermissionRuleEntry[] {
  return CAREFUL_RULES.map(([behavior, rule]) => ({
    rule,
    behavior,
    source: 'projectSettings',
    file: '.toolplane/settings.json',
    root: work,
  }));
}

const bash = defineBuiltinTool('Bash', {
  name: 'Bash',
  inputSchema: z.object({ command: z.string() }),
  prompt: '',
  call: () => Promise.resolve(''),
});

/** The verdict for a decision: read-only when the analysis judged so (also when a rule matched too). */
export function verdictOf(decision: PermissionDecision): Verdict {
  switch (decision.behavior) {
    case 'allow':
      if (decision.readOnly === true || decision.reason.kind === 'read-only')
        return { kind: 'read-only', reason: 'judged read-only' };
      return {
        kind: 'rule',
        reason: decision.reason.kind === 'rule' ? `rule ${decision.reason.rule}` : `allowed by ${decision.reason.kind}`,
      };
    case 'deny':
      return { kind: 'deny', reason: decision.message };
    case 'ask':
      return { kind: 'ask', reason: decision.message };
    case 'passthrough':
      return { kind: 'ask', reason: decision.message ?? 'passthrough' };
  }
}

/** The real engine with the careful rules. */
export async function createEngineJudge(options: { readonly work: string; readonly home: string }): Promise<Judge> {
  await initShellParser();
  const engine = createPermissionEngine({
    rules: carefulRules(options.work),
    cwd: options.work,
    homeDir: options.home,
    mode: 'default',
    caseInsensitive: false,
  });
  return async (command) => {
    const context = {
      toolUseId: 'toolu_differential',
      signal: new AbortController().signal,
      cwd: options.work,
      sessionId: 'differential',
      agentId: 'main',
      permissionMode: engine.mode,
      services: createServices(),
    };
    const subject = { tool: bash, input: { command }, toolUseId: 'toolu_differential', context };
    if (engine.preCheck(subject)?.behavior === 'deny') return { kind: 'deny', reason: 'denied before the call' };
    return verdictOf(await engine.decide(subject));
  };
}

/**
 * A deliberately broken engine: the real one, except that it also judges read-only anything that
 * writes a marker (`touch`, a `>` redirect). The harness must catch it.
 */
export function withPlantedHole(judge: Judge): Judge {
  return async (command) =>
    /\btouch\b|(^|[^=])>/.test(command)
      ? { kind: 'read-only', reason: 'planted hole: touch and > judged read-only' }
      : judge(command);
}

/** An engine that judges every command read-only: only the sandbox stands between it and harm. */
export const allowEverything: Judge = () =>
  Promise.resolve({ kind: 'read-only', reason: 'every command allowed as read-only' });

/** An engine whose rules allow every command (the workspace profile): only the sandbox stands between it and harm. */
export const allowEverythingByRule: Judge = () =>
  Promise.resolve({ kind: 'rule', reason: 'every command allowed by a rule' });
