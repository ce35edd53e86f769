/** Most PDF pages one Read returns. */
export const MAX_PDF_PAGES_PER_READ = 20;

/** Largest PDF Read opens (bytes). */
export const MAX_PDF_BYTES = 32 * 1024 * 1024;

/** An inclusive, 1-based page range. */
export type PageRange = { readonly first: number; readonly last: number | undefined };

/**
 * Parses Read's `pages` parameter: `"3"`, `"1-5"` or `"4-"` (to the end). The error message is
 * for the model.
 */
export function parsePageRange(
  pages: string,
): { readonly ok: true; readonly range: PageRange } | { readonly ok: false; readonly message: string } {
  const match = /^\s*(\d+)\s*(?:(-)\s*(\d+)?)?\s*$/.exec(pages);
  const invalid = `pages must be a page number or range such as "3", "1-5" or "10-" (1-based), but got ${JSON.stringify(pages)}.`;
  if (match?.[1] === undefined) return { ok: false, message: invalid };
  const first = Number(match[1]);
  const last = match[2] === undefined ? first : match[3] === undefined ? undefined : Number(match[3]);
  if (first < 1 || (last !== undefined && last < first)) return { ok: false, message: invalid };
  if (last !== undefined && last - first + 1 > MAX_PDF_PAGES_PER_READ) {
    return {
      ok: false,
      message: `pages ${JSON.stringify(pages)} asks for ${last - first + 1} pages; at most ${MAX_PDF_PAGES_PER_READ} can be read at once. Read it in smaller ranges.`,
    };
  }
  return { ok: true, range: { first, last } };
}

/** The text of each page of a PDF, or a message for the model. */
export type PdfText =
  | {
      readonly ok: true;
      readonly totalPages: number;
      readonly pages: readonly { readonly page: number; readonly text: string }[];
    }
  | { readonly ok: false; readonly message: string };

/**
 * Extracts the text of a PDF page by page with pdf.js. Without a range, a PDF of more than
 * {@link MAX_PDF_PAGES_PER_READ} pages is refused with a request to name pages.
 */
export async function readPdfText(options: {
  readonly data: Uint8Array;
  readonly range: PageRange | undefined;
  readonly signal: AbortSignal;
}): Promise<PdfText> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({
    data: options.data,
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
  });
  const abort = () => void task.destroy();
  options.signal.addEventListener('abort', abort, { once: true });
  try {
    let document;
    try {
      document = await task.promise;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, message: `the PDF could not be opened (${reason}). It may be damaged or encrypted.` };
    }
    const totalPages = document.numPages;
    const range = options.range;
    if (range === undefined && totalPages > MAX_PDF_PAGES_PER_READ) {
      return {
        ok: false,
        message: `it has ${totalPages} pages, more than the ${MAX_PDF_PAGES_PER_READ} Read returns at once. Pass pages, for example "1-${MAX_PDF_PAGES_PER_READ}".`,
      };
    }
    const first = range?.first ?? 1;
    const last = Math.min(range?.last ?? totalPages, totalPages, first + MAX_PDF_PAGES_PER_READ - 1);
    if (first > totalPages) {
      return {
        ok: false,
        message: `it has ${totalPages} page${totalPages === 1 ? '' : 's'}; page ${first} does not exist.`,
      };
    }
    const pages: { page: number; text: string }[] = [];
    for (let number = first; number <= last; number++) {
      if (options.signal.aborted) throw options.signal.reason;
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
      }
      pages.push({ page: number, text: text.trim() });
      page.cleanup();
    }
    return { ok: true, totalPages, pages };
  } finally {
    options.signal.removeEventListener('abort', abort);
    await task.destroy();
  }
}
