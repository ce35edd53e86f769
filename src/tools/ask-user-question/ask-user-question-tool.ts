import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { MappedResult, Tool } from '../../contract/tool.js';
import { describeError } from '../../errors/toolplane-error.js';
import { ASK_USER_QUESTION_PROMPT } from './ask-user-question-prompt.js';
import { INTERACTION_CHANNEL, type Question, type QuestionAnswer } from './interaction-channel.js';

/** Longest `header` the reference system accepts. */
export const MAX_HEADER_CHARS = 12;

const optionSchema = z.strictObject({
  label: z.string().min(1).describe('The choice, in 1-5 words.'),
  description: z.string().describe('What choosing it means or implies.'),
});

const questionSchema = z.strictObject({
  question: z.string().min(1).describe('The complete question, ending with a question mark.'),
  header: z.string().min(1).max(MAX_HEADER_CHARS).describe(`A tag of at most ${MAX_HEADER_CHARS} characters.`),
  options: z.array(optionSchema).min(2).max(4).describe('2 to 4 distinct choices.'),
  multiSelect: z.boolean().optional().describe('Whether several options may be chosen (default false).'),
});

/** The AskUserQuestion tool's input, with the reference system's names. */
export const askUserQuestionInputSchema = z.strictObject({
  questions: z.array(questionSchema).min(1).max(4).describe('1 to 4 questions to ask the person.'),
});

/** A parsed AskUserQuestion input. */
export type AskUserQuestionInput = z.infer<typeof askUserQuestionInputSchema>;

/** What an AskUserQuestion call produced. */
export type AskUserQuestionResult =
  | { readonly kind: 'answered'; readonly answers: readonly QuestionAnswer[]; readonly questions: readonly Question[] }
  | { readonly kind: 'declined'; readonly feedback: string | undefined }
  | { readonly kind: 'failed'; readonly message: string };

/**
 * Creates the AskUserQuestion tool. It reaches the person through the {@link INTERACTION_CHANNEL}
 * service; without one, the result tells the model that no person is available. In `dontAsk`
 * mode the tool denies itself, as the reference does.
 */
export function createAskUserQuestionTool(): Tool<AskUserQuestionInput, AskUserQuestionResult> {
  return defineBuiltinTool<AskUserQuestionInput, AskUserQuestionResult>('AskUserQuestion', {
    name: 'AskUserQuestion',
    optionalServices: [INTERACTION_CHANNEL],
    inputSchema: askUserQuestionInputSchema,
    prompt: ASK_USER_QUESTION_PROMPT,
    searchHint: 'ask the user a question choice clarify decision',
    isReadOnly: () => true,
    checkPermissions(_input, context) {
      if (context.permissionMode === 'dontAsk') {
        return {
          behavior: 'deny',
          message:
            'No questions can be asked in dontAsk mode. Decide with the most reasonable assumption, say which one, and continue.',
          reason: { kind: 'mode', mode: 'dontAsk' },
        };
      }
      return { behavior: 'allow', reason: { kind: 'tool', message: 'asking the person a question changes nothing' } };
    },
    validateInput(input) {
      const problem = findProblem(input);
      return problem ? { ok: false, message: problem } : { ok: true };
    },
    async call(input, context) {
      const channel = context.services.get(INTERACTION_CHANNEL);
      if (!channel) {
        return {
          kind: 'failed',
          message:
            'No person is available to answer questions in this session. Decide with the most reasonable assumption, state it in your reply, and continue.',
        };
      }
      const questions: Question[] = input.questions.map((question) => ({
        ...question,
        multiSelect: question.multiSelect ?? false,
      }));
      try {
        const response = await channel.askQuestions(
          { questions, toolUseId: context.toolUseId, agentId: context.agentId },
          context.signal,
        );
        if (response.kind === 'declined') return { kind: 'declined', feedback: response.feedback };
        return { kind: 'answered', answers: response.answers, questions };
      } catch (error) {
        if (context.signal.aborted)
          return { kind: 'failed', message: 'The question was cancelled before the person answered.' };
        return { kind: 'failed', message: `The question could not be shown to the person: ${describeError(error)}.` };
      }
    },
    mapResult: mapAskUserQuestion,
    describeInput: (input) => input.questions.map((question) => question.question).join(' / '),
  });
}

/** Maps the answers for the model: one `"question" = "answer"` per question asked. */
export function mapAskUserQuestion(result: AskUserQuestionResult): MappedResult {
  switch (result.kind) {
    case 'failed':
      return { content: result.message, isError: true };
    case 'declined':
      return {
        content:
          'The person declined to answer.' +
          (result.feedback ? ` They said: ${result.feedback}` : '') +
          ' Do not ask the same question again; continue with the most reasonable assumption and say which one you made.',
        isError: true,
      };
    case 'answered': {
      const byQuestion = new Map(result.answers.map((answer) => [answer.question, answer.selected]));
      const lines = result.questions.map((question) => {
        const selected = byQuestion.get(question.question) ?? [];
        const answer = selected.length === 0 ? '(no answer)' : selected.join(', ');
        return `"${question.question}" = "${answer}"`;
      });
      return {
        content: `The person answered your questions:\n${lines.join('\n')}\nContinue with these answers in mind.`,
      };
    }
  }
}

function findProblem(input: AskUserQuestionInput): string | undefined {
  const texts = new Set<string>();
  for (const question of input.questions) {
    if (texts.has(question.question))
      return `The question ${JSON.stringify(question.question)} is asked twice; ask each question once.`;
    texts.add(question.question);
    const labels = new Set<string>();
    for (const option of question.options) {
      const label = option.label.trim().toLowerCase();
      if (labels.has(label)) {
        return `The question ${JSON.stringify(question.question)} offers the option ${JSON.stringify(option.label)} twice; make the options distinct.`;
      }
      labels.add(label);
    }
  }
  return undefined;
}
