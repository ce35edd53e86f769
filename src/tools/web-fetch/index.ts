export {
  createWebFetchTool,
  webFetchInputSchema,
  type WebFetchInput,
  type WebFetchToolOptions,
} from './web-fetch-tool.js';
export { mapWebFetchResult, type WebFetchResult, type FetchedPage } from './map-web-fetch-result.js';
export {
  WEB_FETCH_PROMPT_APPLIER,
  createModelPromptApplier,
  type WebFetchPromptApplier,
  type ApplyPromptRequest,
  type ModelPromptApplierOptions,
} from './prompt-applier.js';
export { classifyAddress, isPublicAddress, isHostAllowed, type AddressClass } from './address-policy.js';
export { htmlToMarkdown, toPageContent, type PageContent } from './page-content.js';
export { WEB_FETCH_PROMPT } from './web-fetch-prompt.js';
export {
  requestPage,
  NonPublicAddressError,
  type RequestPageOptions,
  type PageResponse,
  type ResolveHost,
  type ResolvedAddress,
} from './request-page.js';
export { privateHostsFromRules } from './private-hosts-from-rules.js';
