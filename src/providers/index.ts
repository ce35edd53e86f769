/** Model providers: adapters from the internal (Anthropic Messages) format to each model API. */
export { createAnthropicProvider, type AnthropicProviderOptions } from './anthropic/anthropic-provider.js';
export {
  createAnthropicWebSearch,
  type AnthropicWebSearch,
  type AnthropicWebSearchHit,
  type AnthropicWebSearchOptions,
} from './anthropic/anthropic-web-search.js';
export { TOOL_SEARCH_BETA } from './anthropic/to-anthropic-params.js';
export { createOpenAIProvider, PLACEHOLDER_API_KEY, type OpenAIProviderOptions } from './openai/openai-provider.js';
export type { MaxTokensField } from './openai/to-openai-params.js';
export { createPriceTable, LIST_PRICES, type ModelPrice, type PriceBasis, type PriceTable } from './model-prices.js';
export { ProviderError, type ProviderErrorKind, type ProviderErrorOptions } from './provider-error.js';
export type { RetryInfo, RetryOptions } from './retry-stream.js';
export {
  createScriptedProvider,
  type ScriptedProvider,
  type ScriptedProviderOptions,
} from './scripted/scripted-provider.js';
export { parseScript, readScriptFile, scriptFromTurns, type Script } from './scripted/parse-script.js';
export {
  parseScriptedTurn,
  type ScriptedBlock,
  type ScriptedTurn,
  type ScriptExpectation,
} from './scripted/scripted-turn.js';
export { checkExpectation, type RequestView, type ResultView } from './scripted/check-expectation.js';
