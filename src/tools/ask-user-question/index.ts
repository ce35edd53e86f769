export {
  createAskUserQuestionTool,
  mapAskUserQuestion,
  askUserQuestionInputSchema,
  MAX_HEADER_CHARS,
  type AskUserQuestionInput,
  type AskUserQuestionResult,
} from './ask-user-question-tool.js';
export {
  INTERACTION_CHANNEL,
  createInteractionChannel,
  type InteractionChannel,
  type InteractionHandlers,
  type InteractionRequestBase,
  type Question,
  type QuestionOption,
  type QuestionAnswer,
  type QuestionsResponse,
  type PlanReview,
} from './interaction-channel.js';
export { ASK_USER_QUESTION_PROMPT } from './ask-user-question-prompt.js';
