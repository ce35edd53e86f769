import type { QuestionAnswer } from '../../tools/ask-user-question/interaction-channel.js';
import { DIALOG_GUARD_MS } from './dialog-state.js';
import { EMPTY_LINE, editLine, type KeyPress, type LineState } from './edit-line.js';
import type { Interaction, InteractionAnswer } from './terminal-interaction.js';

/** The choices of the plan review, in order (keys 1–3). */
export const PLAN_CHOICES = [
  { label: 'Yes, and auto-accept edits', review: { approved: true, mode: 'acceptEdits' } },
  { label: 'Yes, and ask before each edit', review: { approved: true, mode: 'default' } },
  { label: 'No, keep planning (tell the model what to change)', review: undefined },
] as const;

/** The state of the open question or plan dialog. */
export type InteractionState = {
  readonly id: number;
  readonly openedAt: number;
  /** Questions: the one being answered. */
  readonly questionIndex: number;
  readonly answers: readonly QuestionAnswer[];
  /** Nothing is highlighted at first, so Enter alone answers nothing. */
  readonly selected: number | undefined;
  /** Multi-select questions: the options checked so far. */
  readonly checked: readonly number[];
  /** `text`: the person types their own answer (questions) or feedback (plan). */
  readonly mode: 'choose' | 'text';
  readonly line: LineState;
  readonly error?: string;
};

/** What a key did; `answer` once the person has finished. */
export type InteractionStep = { readonly state: InteractionState; readonly answer?: InteractionAnswer };

/** A freshly opened dialog for interaction `id`. */
export function openInteraction(id: number, now: number): InteractionState {
  return {
    id,
    openedAt: now,
    questionIndex: 0,
    answers: [],
    selected: undefined,
    checked: [],
    mode: 'choose',
    line: EMPTY_LINE,
  };
}

/** How many rows the dialog offers: a question's options plus "Other", or the plan's choices. */
export function choiceCount(interaction: Interaction, state: InteractionState): number {
  if (interaction.kind === 'plan') return PLAN_CHOICES.length;
  return (interaction.request.questions[state.questionIndex]?.options.length ?? 0) + 1;
}

/**
 * Applies one key to a question or plan dialog. Keys in the first {@link DIALOG_GUARD_MS} are
 * ignored; ↑/↓ or a number highlight; Space checks an option of a multi-select question; Enter
 * confirms; the last row of a question ("Other") and "keep planning" open a text line; Esc
 * declines (questions) or keeps planning without feedback (plan). Pure.
 */
export function stepInteraction(
  state: InteractionState,
  press: { readonly input: string; readonly key: KeyPress; readonly now: number; readonly interaction: Interaction },
): InteractionStep {
  if (press.now - state.openedAt < DIALOG_GUARD_MS) return { state };
  const { input, key, interaction } = press;
  if (state.mode === 'text') return stepText(state, input, key, interaction);
  if (key.escape) {
    return {
      state,
      answer:
        interaction.kind === 'plan'
          ? { kind: 'plan', response: { approved: false } }
          : { kind: 'questions', response: { kind: 'declined' } },
    };
  }
  const count = choiceCount(interaction, state);
  if (key.upArrow)
    return { state: highlight(state, state.selected === undefined ? count - 1 : (state.selected - 1 + count) % count) };
  if (key.downArrow || key.tab)
    return { state: highlight(state, state.selected === undefined ? 0 : (state.selected + 1) % count) };
  const number = /^[1-9]$/.test(input) ? Number(input) - 1 : -1;
  if (number >= 0 && number < count) return { state: highlight(state, number) };
  if (interaction.kind === 'plan') return key.return ? confirmPlan(state) : { state };

  const question = interaction.request.questions[state.questionIndex];
  if (!question) return { state };
  const other = question.options.length;
  if (input === ' ' && question.multiSelect && state.selected !== undefined && state.selected < other) {
    const checked = state.checked.includes(state.selected)
      ? state.checked.filter((index) => index !== state.selected)
      : [...state.checked, state.selected];
    return { state: { ...state, checked } };
  }
  if (!key.return) return { state };
  if (state.selected === other) return { state: { ...state, mode: 'text', line: EMPTY_LINE, error: undefined } };
  const picked =
    question.multiSelect && state.checked.length > 0
      ? [...state.checked].sort((a, b) => a - b)
      : state.selected === undefined
        ? []
        : [state.selected];
  if (picked.length === 0)
    return { state: { ...state, error: 'Choose an option first: ↑/↓ or its number, then Enter.' } };
  const labels = picked.flatMap((index) => {
    const option = question.options[index];
    return option ? [option.label] : [];
  });
  return nextQuestion(state, interaction, { question: question.question, selected: labels });
}

function highlight(state: InteractionState, selected: number): InteractionState {
  const { error: _error, ...rest } = state;
  return { ...rest, selected };
}

function confirmPlan(state: InteractionState): InteractionStep {
  const choice = state.selected === undefined ? undefined : PLAN_CHOICES[state.selected];
  if (!choice) return { state: { ...state, error: 'Choose an option first: ↑/↓ or its number, then Enter.' } };
  if (choice.review === undefined) return { state: { ...state, mode: 'text', line: EMPTY_LINE, error: undefined } };
  return { state, answer: { kind: 'plan', response: choice.review } };
}

function stepText(state: InteractionState, input: string, key: KeyPress, interaction: Interaction): InteractionStep {
  const edit = editLine(state.line, input, key);
  if (edit.action === 'cancel') return { state: { ...state, mode: 'choose', line: EMPTY_LINE, error: undefined } };
  if (edit.action !== 'submit') return { state: { ...state, line: edit.state } };
  const text = edit.state.value.trim();
  if (interaction.kind === 'plan') {
    return {
      state,
      answer: { kind: 'plan', response: text === '' ? { approved: false } : { approved: false, feedback: text } },
    };
  }
  const question = interaction.request.questions[state.questionIndex];
  if (!question) return { state };
  if (text === '') return { state: { ...state, error: 'Type an answer, or press Esc to go back.' } };
  const checked = question.multiSelect
    ? [...state.checked]
        .sort((a, b) => a - b)
        .flatMap((index) => {
          const option = question.options[index];
          return option ? [option.label] : [];
        })
    : [];
  return nextQuestion(state, interaction, { question: question.question, selected: [...checked, text] });
}

function nextQuestion(state: InteractionState, interaction: Interaction, answer: QuestionAnswer): InteractionStep {
  const answers = [...state.answers, answer];
  const total = interaction.kind === 'questions' ? interaction.request.questions.length : 0;
  if (answers.length >= total)
    return { state: { ...state, answers }, answer: { kind: 'questions', response: { kind: 'answered', answers } } };
  return {
    state: {
      ...state,
      answers,
      questionIndex: state.questionIndex + 1,
      selected: undefined,
      checked: [],
      mode: 'choose',
      line: EMPTY_LINE,
      error: undefined,
    },
  };
}
