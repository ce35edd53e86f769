import { describe, expect, it } from 'vitest';
import { markdownBlocks } from './markdown-blocks.js';

describe('markdownBlocks', () => {
  it('styles inline runs: bold, italics, code, strike, links, entities', () => {
    expect(markdownBlocks('A **b** *c* `d` ~~e~~ [f](http://g) &amp; x < y')).toEqual([
      {
        kind: 'paragraph',
        spans: [
          { text: 'A ' },
          { bold: true, text: 'b' },
          { text: ' ' },
          { italic: true, text: 'c' },
          { text: ' ' },
          { code: true, text: 'd' },
          { text: ' ' },
          { strike: true, text: 'e' },
          { text: ' ' },
          { link: true, text: 'f' },
          { text: ' (http://g)' },
          { text: ' & x < y' },
        ],
      },
    ]);
  });

  it('reads headings, code fences (closed or still streaming), quotes and rules', () => {
    expect(markdownBlocks('# Title\n\n```ts\nconst a = 1;\n```\n\n> said\n\n---')).toEqual([
      { kind: 'heading', level: 1, spans: [{ text: 'Title' }] },
      { kind: 'code', language: 'ts', text: 'const a = 1;' },
      { kind: 'quote', blocks: [{ kind: 'paragraph', spans: [{ text: 'said' }] }] },
      { kind: 'rule' },
    ]);
    expect(markdownBlocks('```\nstill coming')).toEqual([{ kind: 'code', language: '', text: 'still coming' }]);
  });

  it('reads nested and ordered lists with styled items, and task boxes', () => {
    expect(markdownBlocks('3. one **b**\n4. two\n   - inner')).toEqual([
      {
        kind: 'list',
        ordered: true,
        start: 3,
        items: [
          [{ kind: 'paragraph', spans: [{ text: 'one ' }, { bold: true, text: 'b' }] }],
          [
            { kind: 'paragraph', spans: [{ text: 'two' }] },
            { kind: 'list', ordered: false, start: 1, items: [[{ kind: 'paragraph', spans: [{ text: 'inner' }] }]] },
          ],
        ],
      },
    ]);
    const tasks = markdownBlocks('- [x] done\n- [ ] open');
    const texts = tasks[0]?.kind === 'list' ? tasks[0].items.map((item) => JSON.stringify(item)) : [];
    expect(texts[0]).toContain('[x] ');
    expect(texts[1]).toContain('[ ] ');
  });

  it('reads a table as plain cells with their alignment', () => {
    expect(markdownBlocks('| A | **B** |\n|:-|-:|\n| 1 | `2` |\n| 3 |')).toEqual([
      {
        kind: 'table',
        align: ['left', 'right'],
        header: ['A', 'B'],
        rows: [
          ['1', '2'],
          ['3', ''],
        ],
      },
    ]);
  });

  it('keeps raw HTML as written', () => {
    expect(markdownBlocks('<div>x</div>')).toEqual([{ kind: 'paragraph', spans: [{ text: '<div>x</div>' }] }]);
  });
});
