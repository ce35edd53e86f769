export { createResultStore, type ResultStore } from './result-store.js';
export {
  applyMessageBudget,
  emptyResultText,
  isEmptyContent,
  resultTextLength,
  spillResult,
  DEFAULT_MESSAGE_BUDGET_CHARS,
  PREVIEW_CHARS,
} from './govern-size.js';
