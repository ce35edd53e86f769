import {
  createInteractionChannel,
  type InteractionChannel,
  type InteractionRequestBase,
  type PlanReview,
  type Question,
  type QuestionsResponse,
} from '../../tools/ask-user-question/interaction-channel.js';
import { createWaitingQueue, type WaitingQueue } from './waiting-queue.js';

/** Something a tool asks the person outside the permission flow: questions (AskUserQuestion) or a plan (ExitPlanMode). */
export type Interaction =
  | {
      readonly kind: 'questions';
      readonly request: InteractionRequestBase & { readonly questions: readonly Question[] };
    }
  | { readonly kind: 'plan'; readonly request: InteractionRequestBase & { readonly plan: string } };

/** The person's answer to an {@link Interaction}, of the same kind. */
export type InteractionAnswer =
  | { readonly kind: 'questions'; readonly response: QuestionsResponse }
  | { readonly kind: 'plan'; readonly response: PlanReview };

/** The terminal's interaction channel and the queue its dialogs read. */
export type TerminalInteraction = {
  /** Register under INTERACTION_CHANNEL so AskUserQuestion and ExitPlanMode reach the person. */
  readonly channel: InteractionChannel;
  readonly queue: WaitingQueue<Interaction, InteractionAnswer>;
};

/**
 * Creates the terminal's interaction channel: each question set or plan waits in a queue that
 * the UI shows one at a time; an aborted call leaves the queue and rejects.
 */
export function createTerminalInteraction(): TerminalInteraction {
  const queue = createWaitingQueue<Interaction, InteractionAnswer>({
    abortMessage: 'The turn was interrupted before the person answered.',
  });
  const channel = createInteractionChannel({
    askQuestions: async (request, signal) => {
      const answer = await queue.enqueue({ kind: 'questions', request }, signal);
      return answer.kind === 'questions' ? answer.response : { kind: 'declined' };
    },
    reviewPlan: async (request, signal) => {
      const answer = await queue.enqueue({ kind: 'plan', request }, signal);
      return answer.kind === 'plan' ? answer.response : { approved: false };
    },
  });
  return { channel, queue };
}
