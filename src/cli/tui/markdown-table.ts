import stringWidth from 'string-width';
import type { ColumnAlign } from './markdown-blocks.js';

function pad(text: string, width: number, align: ColumnAlign): string {
  const room = Math.max(0, width - stringWidth(text));
  if (align === 'right') return ' '.repeat(room) + text;
  if (align === 'center') return ' '.repeat(Math.floor(room / 2)) + text + ' '.repeat(Math.ceil(room / 2));
  return text + ' '.repeat(room);
}

function cut(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  let out = '';
  for (const char of text) {
    if (stringWidth(`${out}${char}…`) > width) break;
    out += char;
  }
  return `${out}…`;
}

/**
 * A table drawn with box lines, one string per terminal row: top border, header, separator,
 * rows, bottom border. Columns are as wide as their widest cell (by terminal cell width, so CJK
 * and emoji line up); when the table would pass `maxWidth`, the widest columns are narrowed and
 * their cells cut with `…`. Rows shorter than the header get empty cells. Pure.
 */
export function drawTable(table: {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
  readonly align: readonly ColumnAlign[];
  readonly maxWidth: number;
}): readonly string[] {
  const columns = table.header.length;
  const clean = (row: readonly string[]) =>
    Array.from({ length: columns }, (_, index) => (row[index] ?? '').replace(/\s*\n\s*/g, ' '));
  const header = clean(table.header);
  const rows = table.rows.map(clean);
  const widths = header.map((cell, index) =>
    Math.max(1, stringWidth(cell), ...rows.map((row) => stringWidth(row[index] ?? ''))),
  );
  // Each column costs its width plus 3 (a border and a space either side), plus the last border.
  const budget = Math.max(columns * 4 + 1, table.maxWidth);
  while (widths.reduce((sum, width) => sum + width + 3, 1) > budget) {
    const widest = widths.indexOf(Math.max(...widths));
    if ((widths[widest] ?? 1) <= 3) break;
    widths[widest] = (widths[widest] ?? 1) - 1;
  }
  const line = (left: string, middle: string, right: string) =>
    left + widths.map((width) => '─'.repeat(width + 2)).join(middle) + right;
  const row = (cells: readonly string[]) =>
    '│' +
    cells
      .map((cell, index) => ` ${pad(cut(cell, widths[index] ?? 1), widths[index] ?? 1, table.align[index] ?? 'left')} `)
      .join('│') +
    '│';
  return [line('┌', '┬', '┐'), row(header), line('├', '┼', '┤'), ...rows.map(row), line('└', '┴', '┘')];
}
