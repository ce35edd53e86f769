import { createInterface } from 'node:readline/promises';
import type { CommandIo } from './headless.js';

/**
 * A person's answer to the trust question: `trusted` and `untrusted` are remembered for the
 * folder; `not-now` (Enter, or anything but y/n) leaves it untrusted for this run only, so the
 * question comes back next time and a stray key never decides for good.
 */
export type TrustAnswer = 'trusted' | 'untrusted' | 'not-now';

/** The trust question, as the person reads it. */
export function trustQuestion(folder: string): string {
  return [
    `Do you trust the files in ${folder}?`,
    'Its .toolplane settings and .mcp.json may allow tools, set the permission mode, add folders, set environment',
    'variables, run hooks and start MCP servers. Until you trust it, only their deny and ask rules apply,',
    'in this terminal and in headless runs (-p) alike. Change it later with toolplane trust [--revoke] or /trust.',
    'y: trust it (remembered) · n: do not trust it (remembered) · Enter: not now (asked again next time)',
    'Trust this folder? [y/N] ',
  ].join('\n');
}

/** Reads an answer to the trust question: only a typed yes trusts, only a typed no is remembered as a refusal. */
export function readTrustAnswer(answer: string): TrustAnswer {
  const text = answer.trim();
  if (/^y(es)?$/i.test(text)) return 'trusted';
  if (/^no?$/i.test(text)) return 'untrusted';
  return 'not-now';
}

/** Asks the trust question on the terminal, before the terminal UI starts. */
export async function askTrust(folder: string, io: CommandIo): Promise<TrustAnswer> {
  const prompt = createInterface({ input: io.stdin, output: io.stdout });
  try {
    return readTrustAnswer(await prompt.question(trustQuestion(folder)));
  } finally {
    prompt.close();
  }
}

/** The warning a run shows when the person refused to trust the folder earlier: what it means and how to change it. */
export function refusedTrustWarning(folder: string): string {
  return [
    `warning: you chose not to trust ${folder} earlier: its own settings' allow rules, mode, hooks and MCP servers do not apply.`,
    `  To trust it: /trust in the terminal UI, or toolplane trust ${folder} (applies from the next start).`,
  ].join('\n');
}
