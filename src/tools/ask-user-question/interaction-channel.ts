import type { PermissionMode } from '../../contract/permission.js';
import { defineService } from '../../contract/services.js';

/** One choice offered with a question. */
export type QuestionOption = { readonly label: string; readonly description: string };

/** A question for the person, with the reference system's field names. */
export type Question = {
  readonly question: string;
  /** A very short tag shown beside the question ("Database", "Auth"). */
  readonly header: string;
  readonly options: readonly QuestionOption[];
  readonly multiSelect: boolean;
};

/** The person's answer to one question: chosen labels, or their own words. */
export type QuestionAnswer = {
  readonly question: string;
  readonly selected: readonly string[];
};

/** What the person did with a set of questions. */
export type QuestionsResponse =
  | { readonly kind: 'answered'; readonly answers: readonly QuestionAnswer[] }
  | { readonly kind: 'declined'; readonly feedback?: string };

/** What the person decided about a plan. */
export type PlanReview =
  | {
      readonly approved: true;
      /** The mode to continue in; by default the mode the session had before plan mode. */
      readonly mode?: PermissionMode;
    }
  | { readonly approved: false; readonly feedback?: string };

/** What a tool tells the channel about the call that is asking. */
export type InteractionRequestBase = { readonly toolUseId: string; readonly agentId: string };

/**
 * A channel to the person running the session: the host's terminal UI, a web page, a chat. Both
 * methods wait for the person and must settle when the signal aborts.
 */
export type InteractionChannel = {
  askQuestions(
    request: InteractionRequestBase & { readonly questions: readonly Question[] },
    signal: AbortSignal,
  ): Promise<QuestionsResponse>;
  reviewPlan(request: InteractionRequestBase & { readonly plan: string }, signal: AbortSignal): Promise<PlanReview>;
};

/**
 * The service key for the person's interaction channel. Register it only when a person can
 * answer: without it, AskUserQuestion and ExitPlanMode answer that no person is available.
 */
export const INTERACTION_CHANNEL = defineService<InteractionChannel>('interaction-channel');

/** Handlers for {@link createInteractionChannel}; a missing one declines. */
export type InteractionHandlers = {
  readonly askQuestions?: InteractionChannel['askQuestions'];
  readonly reviewPlan?: InteractionChannel['reviewPlan'];
};

/**
 * Builds a channel from plain functions (a UI's callbacks, a test's script). A missing handler
 * declines, and every call rejects with the signal's reason once it aborts, even if the handler
 * ignores the signal.
 */
export function createInteractionChannel(handlers: InteractionHandlers): InteractionChannel {
  return {
    askQuestions: (request, signal) =>
      raceAbort(
        handlers.askQuestions
          ? handlers.askQuestions(request, signal)
          : Promise.resolve({ kind: 'declined', feedback: 'This interface cannot show questions.' }),
        signal,
      ),
    reviewPlan: (request, signal) =>
      raceAbort(
        handlers.reviewPlan
          ? handlers.reviewPlan(request, signal)
          : Promise.resolve({ approved: false, feedback: 'This interface cannot show plans for approval.' }),
        signal,
      ),
  };
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
