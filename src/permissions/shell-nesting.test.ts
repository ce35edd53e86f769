import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineBuiltinTool } from '../contract/define-builtin-tool.js';
import type { CallSubject } from '../contract/gates.js';
import type { PermissionDecision } from '../contract/permission.js';
import { createServices } from '../contract/services.js';
import { initShellParser, MAX_SHELL_NESTING, parseShell, TOO_DEEP_CONCERN } from './bash-parser.js';
import { createPermissionEngine } from './permission-engine.js';

// The built-in Bash: rules are judged by a tool's identity, not its name.
const bashTool = defineBuiltinTool('Bash', {
  name: 'Bash',
  inputSchema: z.object({ command: z.string() }),
  prompt: '',
  call: () => Promise.resolve(''),
});
const where = { cwd: '/tmp/project', homeDir: '/tmp/home' };

function subject(command: string): CallSubject {
  return {
    tool: bashTool,
    input: { command },
    toolUseId: 'toolu_1',
    context: {
      toolUseId: 'toolu_1',
      signal: new AbortController().signal,
      cwd: where.cwd,
      sessionId: 's',
      agentId: 'main',
      permissionMode: 'default',
      services: createServices(),
    },
  };
}

const engine = () =>
  createPermissionEngine({
    rules: [
      { rule: 'Bash(rm *)', behavior: 'deny', source: 'userSettings', file: '/tmp/home/s.json', root: '/tmp/home' },
    ],
    ...where,
    caseInsensitive: false,
  });

async function decide(command: string): Promise<PermissionDecision> {
  const gate = engine();
  expect(() => gate.preCheck(subject(command))).not.toThrow();
  return gate.decide(subject(command));
}

const repeat = (count: number, part: string, separator: string) => Array(count).fill(part).join(separator);

beforeAll(() => initShellParser());

describe('command lines too deep or too long for the analysis', () => {
  it.each([
    ['40,000 commands joined by ;', repeat(40_000, 'true', ';')],
    ['40,000 commands joined by &&', repeat(40_000, 'a', ' && ')],
    ['40,000 commands joined by ||', repeat(40_000, 'a', ' || ')],
    ['40,000 nested $( )', `echo ${'$( '.repeat(40_000)}rm -rf x${' )'.repeat(40_000)}`],
    ['40,000 nested subshells', `${'('.repeat(40_000)}rm -rf x${')'.repeat(40_000)}`],
    ['20,000 nested blocks', `${'{ '.repeat(20_000)}rm -rf x; ${'}; '.repeat(20_000)}`],
  ])('%s: decided without overflowing, never allowed', async (_, command) => {
    const decision = await decide(command);
    expect(decision.behavior).not.toBe('allow');
  });

  it('reads a line nested past the limit as a concern with no commands, and walks nothing', () => {
    const script = parseShell(
      `${'('.repeat(MAX_SHELL_NESTING + 1)}rm -rf x${')'.repeat(MAX_SHELL_NESTING + 1)}`,
      where,
    );
    expect(script.concerns).toContain(TOO_DEEP_CONCERN);
    expect(script.commands).toEqual([]);
  });

  it('a deny rule still reaches a command nested 100 levels deep in substitutions', async () => {
    const command = `echo ${'"$('.repeat(100)}rm -rf x${')"'.repeat(100)}`;
    expect(parseShell(command, where).concerns).not.toContain(TOO_DEEP_CONCERN);
    expect((await decide(command)).behavior).toBe('deny');
  });

  it('analyzes 200 read-only commands joined by && as usual: all found, allowed', async () => {
    const command = repeat(200, 'echo a', ' && ');
    const script = parseShell(command, where);
    expect(script.commands).toHaveLength(200);
    expect(script.concerns).toEqual([]);
    expect((await decide(command)).behavior).toBe('allow');
  });

  it('analyzes 400 nested subshells, still under the limit', () => {
    const script = parseShell(`${'( '.repeat(400)}rm -rf x${' )'.repeat(400)}`, where);
    expect(script.concerns).not.toContain(TOO_DEEP_CONCERN);
    expect(script.commands.map((found) => found.words[0]?.value)).toEqual(['rm']);
  });
});
