import type { ToolCallContext } from '../../contract/tool.js';
import { describeError } from '../../errors/toolplane-error.js';
import type { WebFetchResult } from './map-web-fetch-result.js';
import { WEB_FETCH_PROMPT_APPLIER } from './prompt-applier.js';

/**
 * Answers the input's prompt over a fetched page through the {@link WEB_FETCH_PROMPT_APPLIER}
 * service, when there is one and the prompt is not empty; a failing applier is reported in
 * `applyError` and the page is still returned. Results other than pages are returned as they are.
 */
export async function applyPrompt(
  result: WebFetchResult,
  input: { readonly prompt: string },
  context: ToolCallContext,
  signal: AbortSignal,
): Promise<WebFetchResult> {
  if (result.kind !== 'page') return result;
  const applier = context.services.get(WEB_FETCH_PROMPT_APPLIER);
  const withPrompt = { ...result, prompt: input.prompt };
  if (!applier || input.prompt.trim() === '') return withPrompt;
  try {
    const answer = await applier.apply({
      url: result.page.url,
      prompt: input.prompt,
      content: result.page.text,
      signal,
    });
    return { ...withPrompt, answer };
  } catch (error) {
    return { ...withPrompt, applyError: describeError(error) };
  }
}
