import { describe, expect, it } from 'vitest';
import { drawTable } from './markdown-table.js';

describe('drawTable', () => {
  it('draws columns as wide as their widest cell, aligned as asked', () => {
    expect(
      drawTable({
        header: ['Name', 'Count', 'Mid'],
        rows: [
          ['alpha', '1', 'x'],
          ['b', '22'],
        ],
        align: ['left', 'right', 'center'],
        maxWidth: 80,
      }),
    ).toEqual([
      '┌───────┬───────┬─────┐',
      '│ Name  │ Count │ Mid │',
      '├───────┼───────┼─────┤',
      '│ alpha │     1 │  x  │',
      '│ b     │    22 │     │',
      '└───────┴───────┴─────┘',
    ]);
  });

  it('lines up wide characters by their terminal width', () => {
    const lines = drawTable({ header: ['名前', 'n'], rows: [['ab', '1']], align: ['left', 'left'], maxWidth: 80 });
    expect(lines[1]).toBe('│ 名前 │ n │');
    expect(lines[3]).toBe('│ ab   │ 1 │');
  });

  it('narrows the widest column to fit, cutting its cells with …', () => {
    const lines = drawTable({
      header: ['k', 'value'],
      rows: [['a', 'x'.repeat(50)]],
      align: ['left', 'left'],
      maxWidth: 20,
    });
    expect(lines.every((line) => line.length <= 20)).toBe(true);
    expect(lines[3]).toBe(`│ a │ ${'x'.repeat(11)}… │`);
  });
});
