import { describe, expect, it } from 'vitest';
import { DIALOG_GUARD_MS } from './dialog-state.js';
import { NO_KEY, type KeyPress } from './edit-line.js';
import {
  choiceCount,
  openInteraction,
  stepInteraction,
  type InteractionState,
  type InteractionStep,
} from './interaction-state.js';
import type { Interaction } from './terminal-interaction.js';

const OPENED = 5_000;
const LATER = OPENED + DIALOG_GUARD_MS;
const enter = { return: true };
const base = { toolUseId: 't', agentId: 'main' };
const questions: Interaction = {
  kind: 'questions',
  request: {
    ...base,
    questions: [
      {
        question: 'Which database?',
        header: 'Database',
        multiSelect: false,
        options: [
          { label: 'Postgres', description: 'relational' },
          { label: 'SQLite', description: 'a file' },
        ],
      },
      {
        question: 'Which checks?',
        header: 'Checks',
        multiSelect: true,
        options: [
          { label: 'lint', description: '' },
          { label: 'types', description: '' },
          { label: 'tests', description: '' },
        ],
      },
    ],
  },
};
const plan: Interaction = { kind: 'plan', request: { ...base, plan: '1. read\n2. edit' } };

function press(
  interaction: Interaction,
  keys: ReadonlyArray<string | Partial<KeyPress>>,
  state: InteractionState = openInteraction(1, OPENED),
  now = LATER,
): InteractionStep {
  let step: InteractionStep = { state };
  for (const key of keys) {
    if (step.answer) break;
    step =
      typeof key === 'string'
        ? stepInteraction(step.state, { input: key, key: NO_KEY, now, interaction })
        : stepInteraction(step.state, { input: '', key: { ...NO_KEY, ...key }, now, interaction });
  }
  return step;
}

describe('stepInteraction: questions', () => {
  it('answers each question in turn: a single choice, then checked options of a multi-select', () => {
    const step = press(questions, ['2', enter, '1', ' ', '3', ' ', enter]);
    expect(step.answer).toEqual({
      kind: 'questions',
      response: {
        kind: 'answered',
        answers: [
          { question: 'Which database?', selected: ['SQLite'] },
          { question: 'Which checks?', selected: ['lint', 'tests'] },
        ],
      },
    });
  });

  it('Space unchecks a checked option; Enter on a multi-select with nothing checked takes the highlighted one', () => {
    const first = press(questions, ['1', enter]);
    const unchecked = press(questions, ['2', ' ', ' ', enter], first.state);
    expect(unchecked.answer?.kind === 'questions' && unchecked.answer.response).toEqual({
      kind: 'answered',
      answers: [
        { question: 'Which database?', selected: ['Postgres'] },
        { question: 'Which checks?', selected: ['types'] },
      ],
    });
  });

  it('"Other" takes typed words, with any checked options before them; an empty answer is refused', () => {
    const first = press(questions, ['1', enter]);
    const typing = press(questions, ['1', ' ', '4', enter], first.state);
    expect(typing.state.mode).toBe('text');
    expect(press(questions, [enter], typing.state).state.error).toMatch(/Type an answer/);
    const step = press(questions, ['also fuzzing', enter], typing.state);
    expect(step.answer?.kind === 'questions' && step.answer.response).toEqual({
      kind: 'answered',
      answers: [
        { question: 'Which database?', selected: ['Postgres'] },
        { question: 'Which checks?', selected: ['lint', 'also fuzzing'] },
      ],
    });
  });

  it('Esc in the text line goes back; Esc in the choices declines', () => {
    const typing = press(questions, ['3', enter]);
    expect(typing.state.mode).toBe('text');
    expect(press(questions, [{ escape: true }], typing.state).state.mode).toBe('choose');
    expect(press(questions, [{ escape: true }]).answer).toEqual({ kind: 'questions', response: { kind: 'declined' } });
  });

  it('Enter with nothing highlighted answers nothing; keys during the guard are ignored', () => {
    const bare = press(questions, [enter]);
    expect(bare.answer).toBeUndefined();
    expect(bare.state.error).toMatch(/Choose an option first/);
    const early = press(questions, ['1', enter, { escape: true }], openInteraction(1, OPENED), OPENED + 1);
    expect(early.answer).toBeUndefined();
    expect(early.state).toEqual(openInteraction(1, OPENED));
  });

  it('arrows wrap over the options and "Other"; numbers past the last row and Space on a single choice do nothing', () => {
    expect(choiceCount(questions, openInteraction(1, OPENED))).toBe(3);
    expect(press(questions, [{ upArrow: true }]).state.selected).toBe(2);
    expect(
      press(questions, [{ downArrow: true }, { downArrow: true }, { downArrow: true }, { downArrow: true }]).state
        .selected,
    ).toBe(0);
    expect(press(questions, [{ downArrow: true }, { upArrow: true }]).state.selected).toBe(2);
    expect(press(questions, ['9']).state.selected).toBeUndefined();
    expect(press(questions, ['1', ' ']).state.checked).toEqual([]);
  });
});

describe('stepInteraction: plan', () => {
  it('approves with auto-accept or asking before edits', () => {
    expect(press(plan, ['1', enter]).answer).toEqual({
      kind: 'plan',
      response: { approved: true, mode: 'acceptEdits' },
    });
    expect(press(plan, ['2', enter]).answer).toEqual({ kind: 'plan', response: { approved: true, mode: 'default' } });
  });

  it('keeps planning with the feedback typed, or none', () => {
    const typing = press(plan, ['3', enter]);
    expect(typing.state.mode).toBe('text');
    expect(press(plan, ['split step 2', enter], typing.state).answer).toEqual({
      kind: 'plan',
      response: { approved: false, feedback: 'split step 2' },
    });
    expect(press(plan, [enter], typing.state).answer).toEqual({ kind: 'plan', response: { approved: false } });
  });

  it('Esc keeps planning; Enter alone answers nothing; other keys change nothing', () => {
    expect(press(plan, [{ escape: true }]).answer).toEqual({ kind: 'plan', response: { approved: false } });
    expect(press(plan, [enter]).state.error).toMatch(/Choose an option first/);
    const state = openInteraction(1, OPENED);
    expect(press(plan, ['x'], state).state).toBe(state);
    expect(choiceCount(plan, state)).toBe(3);
  });
});
