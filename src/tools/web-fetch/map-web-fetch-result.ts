import type { MappedResult } from '../../contract/tool.js';

/** A fetched page as text, before any prompt is applied. */
export type FetchedPage = {
  /** The final URL after same-host redirects. */
  readonly url: string;
  readonly mediaType: string;
  readonly format: 'markdown' | 'text';
  readonly text: string;
  /** Set when the body passed the byte limit: the limit. */
  readonly cutBytes: number | undefined;
  /** Set when the text passed the character limit: its full length. */
  readonly cutChars: number | undefined;
};

/** What a WebFetch call produced. */
export type WebFetchResult =
  | {
      readonly kind: 'page';
      readonly page: FetchedPage;
      readonly prompt: string;
      /** The prompt applier's answer, when one is registered and succeeded. */
      readonly answer: string | undefined;
      readonly applyError: string | undefined;
      readonly fromCache: boolean;
    }
  | { readonly kind: 'redirect'; readonly url: string; readonly location: string; readonly status: number }
  | {
      readonly kind: 'binary';
      readonly url: string;
      readonly mediaType: string;
      readonly bytes: number;
      readonly truncated: boolean;
    }
  | { readonly kind: 'http-error'; readonly url: string; readonly status: number; readonly statusText: string }
  | { readonly kind: 'failed'; readonly message: string };

/** Maps a WebFetch result for the model. */
export function mapWebFetchResult(result: WebFetchResult): MappedResult {
  switch (result.kind) {
    case 'failed':
      return { content: result.message, isError: true };
    case 'http-error':
      return {
        content: `${result.url} answered HTTP ${result.status}${result.statusText ? ` ${result.statusText}` : ''}. Check the URL; the page may have moved or need a login WebFetch cannot provide.`,
        isError: true,
      };
    case 'redirect':
      return {
        content:
          `${result.url} redirects (HTTP ${result.status}) to another host: ${result.location}\n` +
          'WebFetch does not follow redirects to other hosts. If that is the page you want, call WebFetch again with that URL.',
      };
    case 'binary':
      return {
        content: `${result.url} returned ${result.mediaType} content (${result.bytes}${result.truncated ? '+' : ''} bytes), which WebFetch does not convert to text. Look for an HTML or text version of it.`,
        isError: true,
      };
    case 'page':
      return { content: mapPage(result) };
  }
}

function mapPage(result: Extract<WebFetchResult, { kind: 'page' }>): string {
  const { page } = result;
  const notes: string[] = [];
  if (page.cutBytes !== undefined)
    notes.push(`the page is larger than ${page.cutBytes} bytes and only its beginning was read`);
  if (page.cutChars !== undefined)
    notes.push(`the text was cut to its first ${page.text.length} of ${page.cutChars} characters`);
  const cutNote = notes.length > 0 ? `\n\n[Truncated: ${notes.join('; ')}.]` : '';
  if (result.answer !== undefined) return `${result.answer}${cutNote}`;
  const kind = page.format === 'markdown' ? `${page.mediaType}, converted to Markdown` : page.mediaType;
  const header = `Content of ${page.url} (${kind}):`;
  const body = page.text.trim() === '' ? '(the page has no text content)' : page.text;
  const why = result.applyError
    ? `The small model could not apply your prompt (${result.applyError})`
    : 'No small model is configured to apply your prompt';
  const footer = result.prompt.trim() === '' ? '' : `\n\n[${why}; answer it from the content above: ${result.prompt}]`;
  return `${header}\n\n${body}${cutNote}${footer}`;
}
