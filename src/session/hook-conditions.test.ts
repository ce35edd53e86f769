import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CallSubject } from '../contract/gates.js';
import type { HookEventName, HookMatcherConfig } from '../contract/hook-config.js';
import { createHookGate } from '../hooks/create-hook-gate.js';
import { initShellParser } from '../permissions/bash-parser.js';
import { editTool } from '../tools/edit/edit-tool.js';
import { createHookConditionJudge, reportHookConditionProblems } from './hook-conditions.js';
import { bashCall, builtinBash } from './__fixtures__/bash-call.js';

let dir: string;
let project: string;
beforeAll(async () => {
  await initShellParser();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolplane-hook-if-'));
  project = join(dir, 'project');
  await mkdir(project);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const subject = (command: string) => bashCall(command, project);

/** A PreToolUse hook that leaves a marker when it starts and blocks, under the condition `condition`. */
function guard(condition: string, marker: string) {
  const settings = new Map<HookEventName, HookMatcherConfig[]>([
    [
      'PreToolUse',
      [
        {
          matcher: 'Bash',
          source: 'projectSettings',
          hooks: [{ type: 'command', command: `touch ${marker}; echo "no pushing" >&2; exit 2`, if: condition }],
        },
      ],
    ],
  ]);
  return createHookGate({
    settings,
    projectDir: project,
    env: { PATH: process.env['PATH'] },
    conditionMatches: createHookConditionJudge({ cwd: project, homeDir: dir }),
  });
}

describe('a hook with "if"', () => {
  it('starts only for a call its rule matches, wherever the command hides; a call it does not match starts no process', async () => {
    const cases: [string, boolean][] = [
      ['git push origin main', true],
      ['ls && git push --force', true],
      ["bash -c 'git push'", true],
      ['timeout 5 git push', true],
      // Commands the engine cannot read through may match: the hook runs.
      ['g=git; $g push', true],
      ['echo git push | sh', true],
      ['git status', false],
      ['git pushx', false],
      ['echo git push', false],
    ];
    for (const [command, matches] of cases) {
      const marker = join(dir, `ran-${cases.findIndex(([text]) => text === command)}`);
      const outcome = await guard('Bash(git push:*)', marker).preToolUse(
        subject(command),
        new AbortController().signal,
      );
      expect({ command, ran: existsSync(marker) }).toEqual({ command, ran: matches });
      expect({ command, decision: outcome.decision }).toEqual({ command, decision: matches ? 'deny' : undefined });
    }
  });

  it('a condition that is not a rule runs the hook for every call: a guard never goes quiet', async () => {
    const marker = join(dir, 'ran');
    const outcome = await guard('Bash(git push', marker).preToolUse(
      subject('git status'),
      new AbortController().signal,
    );
    expect(existsSync(marker)).toBe(true);
    expect(outcome.decision).toBe('deny');
  });
  it('the same command brought in by two ifs runs once for a call both match, and not at all for one neither does', async () => {
    const log = join(dir, 'runs.log');
    const hook = (condition: string) => ({ type: 'command' as const, command: `echo run >> ${log}`, if: condition });
    const settings = new Map<HookEventName, HookMatcherConfig[]>([
      [
        'PreToolUse',
        [{ matcher: 'Bash', source: 'projectSettings', hooks: [hook('Bash(git push:*)'), hook('Bash(git:*)')] }],
      ],
    ]);
    const gate = createHookGate({
      settings,
      projectDir: project,
      env: { PATH: process.env['PATH'] },
      conditionMatches: createHookConditionJudge({ cwd: project, homeDir: dir }),
    });
    await gate.preToolUse(subject('git push origin main'), new AbortController().signal);
    await gate.preToolUse(subject('ls'), new AbortController().signal);
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual(['run']);
  });
  it("anchors an if's /path at its settings file's root, as that file's permission rules are", async () => {
    const judge = createHookConditionJudge({ cwd: project, homeDir: dir });
    const edit: CallSubject = {
      ...subject(''),
      tool: editTool,
      input: { file_path: join(project, 'src', 'a.ts'), old_string: 'a', new_string: 'b' },
    };
    expect(await judge({ rule: 'Edit(/src/**)', root: project }, edit)).toBe(true);
    expect(await judge({ rule: 'Edit(/src/**)', root: undefined }, edit)).toBe(true);
    // The same rule in a user settings file is anchored at the user's folder: not this project's src.
    expect(await judge({ rule: 'Edit(/src/**)', root: join(dir, 'user') }, edit)).toBe(false);
  });
  it('is checked against the tools at start: an if naming a tool the session does not have is told', () => {
    const warnings: string[] = [];
    const hooksWith = (condition: string) =>
      new Map<HookEventName, HookMatcherConfig[]>([
        [
          'PreToolUse',
          [
            {
              source: 'projectSettings',
              file: '/p/.claude/settings.json',
              hooks: [{ type: 'command', command: 'x', if: condition }],
            },
          ],
        ],
      ]);
    const check = (condition: string) =>
      reportHookConditionProblems({
        hooks: hooksWith(condition),
        tools: [builtinBash],
        mcpServers: [],
        cwd: project,
        homeDir: dir,
        warn: (line) => warnings.push(line),
      });
    check('Bash(git push:*)');
    expect(warnings).toEqual([]);
    check('Shell(git push:*)');
    expect(warnings).toEqual([expect.stringMatching(/\/p\/\.claude\/settings\.json: a hook's "if": .*Shell/)]);
  });
});
