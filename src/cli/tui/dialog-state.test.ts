import { describe, expect, it } from 'vitest';
import type { RuleSuggestion } from '../../contract/permission.js';
import { approvalOptions, describeScope } from './approval-options.js';
import { DIALOG_GUARD_MS, openDialog, stepDialog, type DialogState, type DialogStep } from './dialog-state.js';
import { NO_KEY, type KeyPress } from './edit-line.js';

const suggestions: readonly RuleSuggestion[] = [
  { rule: 'Bash(npm test:*)', behavior: 'allow', destination: 'localSettings', covers: 'npm test with any arguments' },
  { rule: 'Bash(rm:*)', behavior: 'deny', destination: 'userSettings' },
  { rule: 'Bash', behavior: 'allow', destination: 'session' },
];
const callInput = { command: 'npm test' };
const OPENED = 10_000;
const LATER = OPENED + DIALOG_GUARD_MS;

function press(state: DialogState, keys: ReadonlyArray<string | Partial<KeyPress>>, now = LATER): DialogStep {
  let step: DialogStep = { state };
  for (const key of keys) {
    if (step.response) break;
    step =
      typeof key === 'string'
        ? stepDialog(step.state, { input: key, key: NO_KEY, now, callInput })
        : stepDialog(step.state, { input: '', key: { ...NO_KEY, ...key }, now, callInput });
  }
  return step;
}
const enter = { return: true };
const fresh = () => openDialog({ id: 7, request: { suggestions }, now: OPENED });

describe('approvalOptions', () => {
  it('lists once, one always per allow suggestion, edit, deny and abort, numbered from 1', () => {
    const options = approvalOptions({ suggestions });
    expect(options.map((option) => `${option.key}:${option.kind}`)).toEqual([
      '1:allow-once',
      '2:allow-always',
      '3:allow-always',
      '4:edit',
      '5:deny',
      '6:abort',
    ]);
    const always = options[1];
    expect(always?.kind === 'allow-always' && always.detail).toBe(
      'saves rule Bash(npm test:*) — covers npm test with any arguments',
    );
    expect(always?.label).toContain(describeScope('localSettings'));
    const session = options[2];
    expect(session?.kind === 'allow-always' && session.detail).toBe('saves rule Bash');
  });

  it('marks an "always allow" whose rule allows any code, and only that one', () => {
    const options = approvalOptions({
      suggestions: [
        { rule: 'Bash(python:*)', behavior: 'allow', destination: 'session' },
        { rule: 'Bash(python manage.py test:*)', behavior: 'allow', destination: 'localSettings' },
      ],
    });
    const [, anyCode, bounded] = options;
    expect(anyCode?.kind === 'allow-always' && anyCode.allowsAnyCode).toMatch(/^python runs whatever script/);
    expect(bounded?.kind === 'allow-always' && bounded.allowsAnyCode).toBeUndefined();
  });

  it('names every scope', () => {
    expect(describeScope('session')).toMatch(/session/);
    expect(describeScope('localSettings')).toMatch(/settings\.local\.json/);
    expect(describeScope('projectSettings')).toMatch(/\.toolplane\/settings\.json/);
    expect(describeScope('userSettings')).toMatch(/~\/\.toolplane/);
  });
});

describe('stepDialog', () => {
  it('opens with nothing chosen, so Enter alone never answers', () => {
    const state = fresh();
    expect(state.selected).toBeUndefined();
    const step = press(state, [enter]);
    expect(step.response).toBeUndefined();
    expect(step.state.error).toMatch(/Choose an option first/);
  });

  it('ignores every key during the guard after it opens, Esc included', () => {
    for (const key of ['1', enter, { escape: true }, { downArrow: true }]) {
      const step = press(fresh(), [key], OPENED + DIALOG_GUARD_MS - 1);
      expect(step.response).toBeUndefined();
      expect(step.state).toEqual(fresh());
    }
  });

  it('a number only highlights its option; Enter confirms it', () => {
    const chosen = press(fresh(), ['1']);
    expect(chosen.response).toBeUndefined();
    expect(chosen.state.selected).toBe(0);
    expect(press(chosen.state, [enter]).response).toEqual({ behavior: 'allow' });
  });

  it('allow always answers with the exact suggestion chosen', () => {
    expect(press(fresh(), ['2', enter]).response).toEqual({ behavior: 'allow', remember: suggestions[0] });
    expect(press(fresh(), ['3', enter]).response).toEqual({ behavior: 'allow', remember: suggestions[2] });
  });

  it('arrows move the highlight and wrap; the first ↓ lands on the first option, the first ↑ on the last', () => {
    expect(press(fresh(), [{ downArrow: true }]).state.selected).toBe(0);
    expect(press(fresh(), [{ upArrow: true }]).state.selected).toBe(5);
    expect(press(fresh(), [{ upArrow: true }, { downArrow: true }]).state.selected).toBe(0);
    expect(press(fresh(), [{ downArrow: true }, { upArrow: true }]).state.selected).toBe(5);
    expect(press(fresh(), [{ tab: true }, { tab: true }]).state.selected).toBe(1);
    expect(press(fresh(), [{ tab: true }, { tab: true }, { tab: true, shift: true }]).state.selected).toBe(0);
    expect(press(fresh(), [enter, '2']).state.error).toBeUndefined();
  });

  it('keys that mean nothing change nothing', () => {
    const state = fresh();
    expect(press(state, ['x']).state).toBe(state);
  });

  it('Esc denies, never allows', () => {
    expect(press(fresh(), [{ escape: true }]).response).toEqual({ behavior: 'deny' });
    expect(press(fresh(), ['1', { escape: true }]).response).toEqual({ behavior: 'deny' });
  });

  it('edit opens the input as indented JSON for a tool other than Bash; valid JSON allows with the edited input', () => {
    const editing = press(fresh(), ['4', enter]);
    expect(editing.response).toBeUndefined();
    expect(editing.state.mode).toBe('edit');
    expect(editing.state.editing).toBe('json');
    expect(editing.state.line.value).toBe('{\n  "command": "npm test"\n}');
    const cleared = press(editing.state, [{ ctrl: true }]);
    expect(cleared.state.line.value).toBe('{\n  "command": "npm test"\n}');
    const retyped = stepDialog(editing.state, { input: 'u', key: { ...NO_KEY, ctrl: true }, now: LATER, callInput });
    const step = press(retyped.state, ['{"command":"npm test -- --run"}', enter]);
    expect(step.response).toEqual({ behavior: 'allow', updatedInput: { command: 'npm test -- --run' } });
  });

  it('edit opens the command of a Bash call as text; Enter allows with only the command changed', () => {
    const bash = (state: DialogState, keys: ReadonlyArray<string | Partial<KeyPress>>) => {
      let step: DialogStep = { state };
      const input = { command: 'npm test', description: 'run the tests' };
      for (const key of keys) {
        const pressed =
          typeof key === 'string' ? { input: key, key: NO_KEY } : { input: '', key: { ...NO_KEY, ...key } };
        step = stepDialog(step.state, { ...pressed, now: LATER, callInput: input, toolName: 'Bash' });
      }
      return step;
    };
    const editing = bash(fresh(), ['4', enter]);
    expect(editing.state.editing).toBe('command');
    expect(editing.state.line.value).toBe('npm test');
    // A backslash then Enter types a line break; Enter alone sends.
    const step = bash(editing.state, [' -- --run \\', enter, '--silent', enter]);
    expect(step.response).toEqual({
      behavior: 'allow',
      updatedInput: { command: 'npm test -- --run \n--silent', description: 'run the tests' },
    });
    const emptied = stepDialog(editing.state, {
      input: 'u',
      key: { ...NO_KEY, ctrl: true },
      now: LATER,
      callInput: { command: 'npm test' },
      toolName: 'Bash',
    });
    const refused = bash(emptied.state, [enter]);
    expect(refused.response).toBeUndefined();
    expect(refused.state.error).toMatch(/command is empty/);
  });

  it('edit refuses invalid JSON with a message and stays open; Esc goes back to the options', () => {
    const editing = press(fresh(), ['4', enter, '}']);
    const step = press(editing.state, [enter]);
    expect(step.response).toBeUndefined();
    expect(step.state.error).toMatch(/Not valid JSON/);
    const back = press(step.state, [{ escape: true }]);
    expect(back.response).toBeUndefined();
    expect(back.state.mode).toBe('choose');
    expect(back.state.error).toBeUndefined();
  });

  it('deny opens a message line; the message reaches the model, an empty one is a plain deny', () => {
    const denying = press(fresh(), ['5', enter]);
    expect(denying.state.mode).toBe('deny-message');
    expect(press(denying.state, ['use the test script instead ', enter]).response).toEqual({
      behavior: 'deny',
      feedback: 'use the test script instead',
    });
    expect(press(denying.state, ['   ', enter]).response).toEqual({ behavior: 'deny' });
    expect(press(denying.state, [{ escape: true }]).state.mode).toBe('choose');
  });

  it('abort stops the turn', () => {
    expect(press(fresh(), ['6', enter]).response).toEqual({ behavior: 'abort' });
  });

  it('without suggestions the options renumber: edit is 2, abort is 4', () => {
    const state = openDialog({ id: 1, request: { suggestions: [] }, now: OPENED });
    expect(state.options.map((option) => option.kind)).toEqual(['allow-once', 'edit', 'deny', 'abort']);
    expect(press(state, ['4', enter]).response).toEqual({ behavior: 'abort' });
  });
});
