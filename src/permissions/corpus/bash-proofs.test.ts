import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { codeOptionCases } from './code-option-cases.js';
import type { CorpusCase } from './corpus-harness.js';
import { evaluatedCodeCases } from './evaluated-code-cases.js';
import { launcherCases } from './launcher-cases.js';

/**
 * The corpus cases of issue 11 whose commands carry an inert marker, run in real bash the way the
 * Bash tool runs them (`eval` of the command), in a disposable folder with its own HOME. An attack
 * (expected `ask` or `deny`) must really run its hidden command there: `touch marker` creates the
 * marker, `rm -rf src` removes the folder `src`. A look-alike (expected `allow`) must not. So each
 * case shows that bash executes the code the engine now refuses to approve, and that the harmless
 * forms are data to bash too.
 */

const hasBash = spawnSync('bash', ['-c', 'true']).status === 0;
/** Programs the code-option proofs may start here: local, no network, no repository needed. */
const LOCAL_PROGRAMS = ['sed', 'awk', 'find', 'xargs', 'tar', 'make', 'rsync'];
const installed = (program: string): boolean => spawnSync('bash', ['-c', `command -v ${program}`]).status === 0;
const localCodeOptionCases = codeOptionCases.filter((testCase) => {
  const program = String(testCase.input.command).split(' ')[0] ?? '';
  return LOCAL_PROGRAMS.includes(program) && installed(program);
});
const suites: readonly CorpusCase[] = [...evaluatedCodeCases, ...launcherCases, ...localCodeOptionCases];

type Effect = 'marker' | 'src';

function effectOf(command: string): Effect | undefined {
  if (command.includes('touch marker')) return 'marker';
  if (command.includes('rm -rf src')) return 'src';
  return undefined;
}

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'toolplane-bash-proofs-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs the command as the Bash tool does and reports whether its hidden effect happened. */
function runInBash(command: string, effect: Effect, index: number): boolean {
  const cwd = path.join(root, `case-${index}`);
  const home = path.join(cwd, 'home');
  mkdirSync(path.join(cwd, 'src'), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(path.join(cwd, 'README.md'), 'a\nb\n');
  writeFileSync(path.join(cwd, 'src', 'a.ts'), 'export {};\n');
  spawnSync('bash', ['-c', 'eval "$1"', 'bash', command], {
    cwd,
    env: { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin' },
    input: '',
    timeout: 5_000,
  });
  return effect === 'marker' ? existsSync(path.join(cwd, 'marker')) : !existsSync(path.join(cwd, 'src'));
}

const proofs = suites.flatMap((testCase) => {
  const command = testCase.tool === 'Bash' ? testCase.input.command : undefined;
  const effect = typeof command === 'string' ? effectOf(command) : undefined;
  // Only commands that run without a terminal or a network, and none that starts watch's screen loop.
  if (
    typeof command !== 'string' ||
    effect === undefined ||
    /\b(watch|su|runuser|script|flock|sudo|busybox)\b/.test(command)
  )
    return [];
  return [{ name: testCase.name, command, effect, attack: testCase.expect !== 'allow' }];
});

describe.skipIf(!hasBash)('issue 11 attacks run in real bash, and their look-alikes do not', () => {
  test('there are proofs for both attacks and look-alikes', () => {
    expect(proofs.filter((proof) => proof.attack).length).toBeGreaterThan(20);
    expect(proofs.filter((proof) => !proof.attack).length).toBeGreaterThan(2);
  });
  test.each(proofs.map((proof, index) => [proof.name, proof, index] as const))('%s', (_name, proof, index) => {
    expect(runInBash(proof.command, proof.effect, index)).toBe(proof.attack);
  });
});
