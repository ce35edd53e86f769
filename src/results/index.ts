export { createResultStore, type ResultStore } from './result-store.js';
export {
  applyMessageBudget,
  emptyResultText,
  governResultSize,
  isEmptyContent,
  resultTextLength,
  savedOutputPath,
  spillResult,
  DEFAULT_MESSAGE_BUDGET_CHARS,
  PREVIEW_CHARS,
  type SavedOutput,
} from './govern-size.js';
