import { Lexer, type Token, type Tokens } from 'marked';

/** A run of inline text with its style. */
export type Span = {
  readonly text: string;
  readonly bold?: boolean;
  readonly italic?: boolean;
  readonly code?: boolean;
  readonly strike?: boolean;
  readonly link?: boolean;
};

/** Where a table column's cells sit. */
export type ColumnAlign = 'left' | 'right' | 'center';

/** One block of markdown as the terminal shows it. Plain data, built by {@link markdownBlocks}. */
export type MarkdownBlock =
  | { readonly kind: 'heading'; readonly level: number; readonly spans: readonly Span[] }
  | { readonly kind: 'paragraph'; readonly spans: readonly Span[] }
  | { readonly kind: 'code'; readonly language: string; readonly text: string }
  | {
      readonly kind: 'list';
      readonly ordered: boolean;
      readonly start: number;
      readonly items: readonly (readonly MarkdownBlock[])[];
    }
  | {
      readonly kind: 'table';
      readonly align: readonly ColumnAlign[];
      readonly header: readonly string[];
      readonly rows: readonly (readonly string[])[];
    }
  | { readonly kind: 'quote'; readonly blocks: readonly MarkdownBlock[] }
  | { readonly kind: 'rule' };

type Style = Omit<Span, 'text'>;

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" };

/** The lexer keeps `&amp;`-style escapes in text tokens; people read the characters. */
function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|apos);/g, (whole, name: string) => ENTITIES[name] ?? whole);
}

function inlineSpans(tokens: readonly Token[] | undefined, style: Style = {}): Span[] {
  const spans: Span[] = [];
  for (const token of tokens ?? []) spans.push(...tokenSpans(token, style));
  return spans;
}

function tokenSpans(token: Token, style: Style): Span[] {
  switch (token.type) {
    case 'strong':
      return inlineSpans((token as Tokens.Strong).tokens, { ...style, bold: true });
    case 'em':
      return inlineSpans((token as Tokens.Em).tokens, { ...style, italic: true });
    case 'del':
      return inlineSpans((token as Tokens.Del).tokens, { ...style, strike: true });
    case 'codespan':
      return [{ ...style, code: true, text: decodeEntities((token as Tokens.Codespan).text) }];
    case 'br':
      return [{ ...style, text: '\n' }];
    case 'link': {
      const link = token as Tokens.Link;
      const label = inlineSpans(link.tokens, { ...style, link: true });
      const shown = label.map((span) => span.text).join('');
      // A bare URL is its own label; otherwise the address follows, since a terminal cannot hide it in a click.
      return shown === link.href ? label : [...label, { ...style, text: ` (${link.href})` }];
    }
    case 'image':
      return [{ ...style, text: `[image: ${(token as Tokens.Image).text || (token as Tokens.Image).href}]` }];
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens ? inlineSpans(text.tokens, style) : [{ ...style, text: decodeEntities(text.text) }];
    }
    default:
      // escape, html and anything newer: their text as written.
      return [{ ...style, text: decodeEntities('text' in token && typeof token.text === 'string' ? token.text : '') }];
  }
}

function plainText(tokens: readonly Token[] | undefined): string {
  return inlineSpans(tokens)
    .map((span) => span.text)
    .join('');
}

function blocksOf(tokens: readonly Token[]): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  for (const token of tokens) {
    const block = blockOf(token);
    if (block !== undefined) blocks.push(block);
  }
  return blocks;
}

function blockOf(token: Token): MarkdownBlock | undefined {
  switch (token.type) {
    case 'space':
    case 'def':
      return undefined;
    case 'heading':
      return { kind: 'heading', level: (token as Tokens.Heading).depth, spans: inlineSpans(token.tokens) };
    case 'paragraph':
      return { kind: 'paragraph', spans: inlineSpans(token.tokens) };
    case 'code':
      return { kind: 'code', language: (token as Tokens.Code).lang ?? '', text: (token as Tokens.Code).text };
    case 'blockquote':
      return { kind: 'quote', blocks: blocksOf((token as Tokens.Blockquote).tokens) };
    case 'hr':
      return { kind: 'rule' };
    case 'list':
      return listOf(token as Tokens.List);
    case 'table':
      return tableOf(token as Tokens.Table);
    case 'text': {
      const text = token as Tokens.Text;
      return {
        kind: 'paragraph',
        spans: text.tokens ? inlineSpans(text.tokens) : [{ text: decodeEntities(text.text) }],
      };
    }
    default:
      // html blocks and anything newer: shown as written.
      return { kind: 'paragraph', spans: [{ text: token.raw.replace(/\n+$/, '') }] };
  }
}

function listOf(list: Tokens.List): MarkdownBlock {
  const start = typeof list.start === 'number' ? list.start : 1;
  const items = list.items.map((item) => {
    const blocks = blocksOf(item.tokens);
    if (!item.task) return blocks;
    // The checkbox token is dropped by blocksOf; its state leads the first line instead.
    const mark: Span = { text: item.checked ? '[x] ' : '[ ] ' };
    const [first, ...rest] = blocks;
    return first?.kind === 'paragraph' ? [{ ...first, spans: [mark, ...first.spans] }, ...rest] : blocks;
  });
  return { kind: 'list', ordered: list.ordered, start, items };
}

function tableOf(table: Tokens.Table): MarkdownBlock {
  return {
    kind: 'table',
    align: table.align.map((align) => align ?? 'left'),
    header: table.header.map((cell) => plainText(cell.tokens)),
    rows: table.rows.map((row) => row.map((cell) => plainText(cell.tokens))),
  };
}

/**
 * The assistant's markdown as blocks for the terminal: headings, paragraphs of styled spans,
 * code blocks, lists (nested), tables (cells as plain text), quotes and rules. Pure; text that is
 * not markdown comes back as paragraphs of its words. An unclosed code fence (text still
 * streaming) is a code block up to the end.
 */
export function markdownBlocks(markdown: string): readonly MarkdownBlock[] {
  return blocksOf(Lexer.lex(markdown, { gfm: true }));
}
