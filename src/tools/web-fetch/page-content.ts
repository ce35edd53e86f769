import { createRequire } from 'node:module';
import type TurndownService from 'turndown';

// turndown (with its DOM) is half a megabyte of code: loaded on the first conversion, not at startup.
const loadModule = createRequire(import.meta.url);

/** A response body made readable for the model, or the reason it could not be. */
export type PageContent =
  | { readonly kind: 'text'; readonly format: 'markdown' | 'text'; readonly mediaType: string; readonly text: string }
  | { readonly kind: 'binary'; readonly mediaType: string };

/** Elements whose content is never part of what a reader sees. */
const REMOVED_ELEMENTS = [
  'head',
  'title',
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'canvas',
  'svg',
] as const;

const TEXT_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'application/json',
  'application/ld+json',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/x-sh',
  'application/graphql',
]);

let converter: TurndownService | undefined;

/** Converts an HTML document to Markdown (ATX headings, fenced code), dropping scripts and styles. */
export function htmlToMarkdown(html: string): string {
  converter ??= createConverter();
  return converter
    .turndown(stripInvisible(html))
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Drops comments and the raw-text elements a reader never sees before the DOM is built: real
 * pages often carry more script and style than text, and parsing them is most of the cost. As in
 * an HTML parser, such an element ends at its first end tag, and an unclosed one runs to the end
 * of the document; one linear scan.
 */
function stripInvisible(html: string): string {
  const opening = /<!--|<(script|style|noscript|template)\b/gi;
  let kept = '';
  let from = 0;
  for (let match = opening.exec(html); match; match = opening.exec(html)) {
    const closing = match[1] === undefined ? /-->/g : new RegExp(`</${match[1]}\\b[^>]*>`, 'gi');
    closing.lastIndex = match.index + match[0].length;
    const end = closing.exec(html);
    kept += html.slice(from, match.index);
    from = end ? end.index + end[0].length : html.length;
    opening.lastIndex = from;
  }
  return kept + html.slice(from);
}

/**
 * Turns a response body into text: HTML becomes Markdown; other text types (plain, Markdown,
 * JSON, XML, …) are decoded as they are, with the charset the response names (else the page's
 * `<meta charset>`, else UTF-8). A body without a content type counts as text when it decodes
 * as UTF-8 without NUL bytes. Anything else (images, PDFs, archives) is reported as binary.
 */
export function toPageContent(body: Buffer, contentType: string | undefined): PageContent {
  const { mediaType, charset } = parseContentType(contentType);
  if (mediaType === '') return sniff(body);
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') {
    const html = decodeText(body, charset ?? metaCharset(body));
    return { kind: 'text', format: 'markdown', mediaType, text: htmlToMarkdown(html) };
  }
  if (mediaType.startsWith('text/') || TEXT_MEDIA_TYPES.has(mediaType) || /\+(json|xml)$/.test(mediaType)) {
    return { kind: 'text', format: 'text', mediaType, text: decodeText(body, charset) };
  }
  return { kind: 'binary', mediaType };
}

function createConverter(): TurndownService {
  const Turndown = loadModule('turndown') as typeof TurndownService;
  const service = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  service.remove([...REMOVED_ELEMENTS]);
  return service;
}

function parseContentType(value: string | undefined): { mediaType: string; charset: string | undefined } {
  if (!value) return { mediaType: '', charset: undefined };
  const [type = '', ...parameters] = value.split(';');
  let charset: string | undefined;
  for (const parameter of parameters) {
    const [name, raw] = parameter.split('=');
    if (name?.trim().toLowerCase() === 'charset' && raw) charset = raw.trim().replace(/^"|"$/g, '');
  }
  return { mediaType: type.trim().toLowerCase(), charset };
}

function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, 2048).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1];
}

function decodeText(body: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    // An unknown charset label: UTF-8 is the best guess for the web.
    return new TextDecoder('utf-8').decode(body);
  }
}

function sniff(body: Buffer): PageContent {
  if (body.includes(0)) return { kind: 'binary', mediaType: 'application/octet-stream' };
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    if (/^\s*<(!doctype html|html)[\s>]/i.test(text)) {
      return { kind: 'text', format: 'markdown', mediaType: 'text/html', text: htmlToMarkdown(text) };
    }
    return { kind: 'text', format: 'text', mediaType: 'text/plain', text };
  } catch {
    return { kind: 'binary', mediaType: 'application/octet-stream' };
  }
}
