import { beforeAll, describe, expect, test } from 'vitest';
import { initShellParser, parseShell } from './bash-parser.js';
import { compileBashPattern } from './bash-pattern.js';
import { codeRunningOptionIn } from './code-running-match.js';
import { CODE_RUNNING_OPTIONS } from './code-running-options.js';

beforeAll(async () => {
  await initShellParser();
});

const words = (command: string) =>
  parseShell(command, { cwd: '/project', homeDir: '/home/u' }).commands[0]?.words ?? [];

describe('the table of options that run code', () => {
  test('every entry names its source and what it runs', () => {
    for (const entry of CODE_RUNNING_OPTIONS) {
      expect(entry.source.length).toBeGreaterThan(5);
      expect(entry.runs.length).toBeGreaterThan(5);
    }
  });

  test.each(CODE_RUNNING_OPTIONS.map((entry) => [entry.example.attack, entry] as const))(
    '%s is found by its own entry',
    (attack, entry) => {
      const rule = compileBashPattern(entry.example.rule.slice('Bash('.length, -1));
      expect(rule.test(attack)).toBe(true);
      const found = codeRunningOptionIn(words(attack), rule.coveredWords);
      expect(found !== undefined && 'entry' in found ? found.entry : found).toBe(entry);
    },
  );

  test.each(CODE_RUNNING_OPTIONS.map((entry) => [entry.example.lookAlike, entry] as const))(
    'look-alike %s uses no entry',
    (lookAlike, entry) => {
      const rule = compileBashPattern(entry.example.rule.slice('Bash('.length, -1));
      expect(rule.test(lookAlike)).toBe(true);
      expect(codeRunningOptionIn(words(lookAlike), rule.coveredWords)).toBeUndefined();
    },
  );
});
