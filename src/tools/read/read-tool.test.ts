import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from './__fixtures__/make-pdf.js';
import { createFileStateStore, type FileStateStore } from '../file-state/file-state-store.js';
import { createFileToolContext, runFileTool } from '../fs-helpers/file-tool-harness.js';
import { createReadTool, readTool } from './read-tool.js';

let folder: string;
let store: FileStateStore;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'toolplane-read-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

function context(options: { withStore?: boolean } = {}) {
  store = createFileStateStore();
  return createFileToolContext({ cwd: folder, store: options.withStore === false ? undefined : store });
}

async function read(input: Record<string, unknown>, ctx = context()) {
  return runFileTool(readTool, input, ctx);
}

function text(result: { content: unknown }): string {
  if (typeof result.content !== 'string') throw new Error('expected text content');
  return result.content;
}

describe('Read: text', () => {
  it('numbers lines like cat -n and records the read for the write guard', async () => {
    const file = path.join(folder, 'a.txt');
    await writeFile(file, 'alpha\nbeta\ngamma\n');
    const result = await read({ file_path: file });
    expect(result.isError).toBeUndefined();
    expect(text(result)).toBe('     1\talpha\n     2\tbeta\n     3\tgamma');
    const record = store.get(file);
    expect(record?.partial).toBe(false);
    expect(record?.size).toBe(17);
  });

  it('reads a range with a 1-based offset and limit and marks the record partial', async () => {
    const file = path.join(folder, 'range.txt');
    await writeFile(file, Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join('\n'));
    const result = text(await read({ file_path: file, offset: 4, limit: 2 }));
    expect(result).toContain('     4\tline 4\n     5\tline 5');
    expect(result).not.toContain('line 6');
    expect(result).toContain('Showing lines 4–5 of 10. Continue with offset 6');
    expect(store.get(file)?.partial).toBe(true);
  });

  it('treats offset 0 as the first line', async () => {
    const file = path.join(folder, 'zero.txt');
    await writeFile(file, 'one\ntwo');
    expect(text(await read({ file_path: file, offset: 0, limit: 1 }))).toContain('     1\tone');
  });

  it('shows 2,000 lines by default and says how to continue', async () => {
    const file = path.join(folder, 'long.txt');
    await writeFile(file, Array.from({ length: 2_500 }, (_, index) => `${index + 1}`).join('\n'));
    const result = text(await read({ file_path: file }));
    expect(result).toContain('  2000\t2000');
    expect(result).not.toContain('  2001\t2001');
    expect(result).toContain('Continue with offset 2001');
  });

  it('cuts lines over 2,000 characters with a marker', async () => {
    const file = path.join(folder, 'wide.txt');
    await writeFile(file, `${'x'.repeat(5_000)}\nshort\n`);
    const result = text(await read({ file_path: file }));
    expect(result).toContain(`${'x'.repeat(2_000)}… [line cut at 2000 characters]`);
    expect(result).not.toContain('x'.repeat(2_001));
    expect(result).toContain('     2\tshort');
    expect(result).toContain('1 line was longer than 2000 characters');
  });

  it('shows CRLF files without carriage returns and reads UTF-16 with a BOM', async () => {
    const crlf = path.join(folder, 'crlf.txt');
    await writeFile(crlf, 'a\r\nb\r\n');
    expect(text(await read({ file_path: crlf }))).toBe('     1\ta\n     2\tb');
    const utf16 = path.join(folder, 'utf16.txt');
    await writeFile(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\nwörld', 'utf16le')]));
    expect(text(await read({ file_path: utf16 }))).toBe('     1\théllo\n     2\twörld');
  });

  it('notes an empty file and an offset past the end', async () => {
    const empty = path.join(folder, 'empty.txt');
    await writeFile(empty, '');
    const result = await read({ file_path: empty });
    expect(result.isError).toBeUndefined();
    expect(text(result)).toContain('exists but is empty');
    const short = path.join(folder, 'short.txt');
    await writeFile(short, 'one\ntwo\n');
    expect(text(await read({ file_path: short, offset: 50 }))).toContain('has 2 lines; offset 50 is past its end');
  });

  it('refuses a whole read over the size limit and suggests a range, which works', async () => {
    const tool = createReadTool({ maxWholeFileBytes: 1_000 });
    const file = path.join(folder, 'big.txt');
    await writeFile(file, 'y'.repeat(100).concat('\n').repeat(50));
    const ctx = context();
    const refused = await runFileTool(tool, { file_path: file }, ctx);
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/over the .* limit .* offset and limit/);
    const ranged = await runFileTool(tool, { file_path: file, offset: 49, limit: 5 }, ctx);
    expect(text(ranged)).toContain('    50\t');
  });

  it('stops at the output limit at a line boundary', async () => {
    const tool = createReadTool({ maxOutputChars: 100 });
    const file = path.join(folder, 'many.txt');
    await writeFile(file, Array.from({ length: 50 }, () => 'abcdefghij').join('\n'));
    const result = text(await runFileTool(tool, { file_path: file }, context()));
    expect(result).toMatch(/Output stopped after line \d+ because it reached 100 characters/);
    expect(store.get(file)?.partial).toBe(true);
  });
});

describe('Read: refusals', () => {
  it('rejects relative paths', async () => {
    const result = await read({ file_path: 'a.txt' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('must be an absolute path');
  });

  it('rejects negative offsets and non-positive limits at the schema', async () => {
    expect((await read({ file_path: path.join(folder, 'a.txt'), offset: -1 })).isError).toBe(true);
    expect((await read({ file_path: path.join(folder, 'a.txt'), limit: 0 })).isError).toBe(true);
  });

  it('reports a missing file and suggests similar names', async () => {
    await writeFile(path.join(folder, 'config.json'), '{}');
    const result = await read({ file_path: path.join(folder, 'confg.json') });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('does not exist');
    expect(text(result)).toContain(path.join(folder, 'config.json'));
    const noFolder = await read({ file_path: path.join(folder, 'nowhere', 'x.txt') });
    expect(text(noFolder)).toContain('does not exist either');
  });

  it('refuses a directory and points to Glob', async () => {
    const result = await read({ file_path: folder });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('is a directory');
    expect(text(result)).toContain('Glob');
  });

  it('refuses binary and non-UTF-8 files', async () => {
    const binary = path.join(folder, 'blob.bin');
    await writeFile(binary, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01]));
    const binaryResult = await read({ file_path: binary });
    expect(binaryResult.isError).toBe(true);
    expect(text(binaryResult)).toContain('binary');
    const latin1 = path.join(folder, 'latin1.txt');
    await writeFile(latin1, Buffer.from('caf\xe9\n', 'latin1'));
    const latin1Result = await read({ file_path: latin1 });
    expect(latin1Result.isError).toBe(true);
    expect(text(latin1Result)).toContain('neither valid UTF-8 nor UTF-16');
    expect(store.get(latin1)).toBeUndefined();
  });

  it('refuses device paths and FIFOs without blocking', async () => {
    for (const device of ['/dev/zero', '/dev/stdin', '/dev/random', '/proc/self/fd/0']) {
      const result = await read({ file_path: device });
      expect(result.isError, device).toBe(true);
      expect(text(result)).toContain('not a regular file');
    }
    const fifo = path.join(folder, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const result = await read({ file_path: fifo });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('not a regular file');
    const link = path.join(folder, 'zero-link');
    await symlink('/dev/zero', link);
    expect(text(await read({ file_path: link }))).toContain('not a regular file');
  });

  it('answers an aborted read with an error result', async () => {
    const file = path.join(folder, 'abort.txt');
    await writeFile(file, 'text\n');
    const controller = new AbortController();
    controller.abort();
    const result = await runFileTool(
      readTool,
      { file_path: file },
      createFileToolContext({ cwd: folder, store: createFileStateStore(), signal: controller.signal }),
    );
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('was aborted');
  });

  it('refuses to run without a file-state store', async () => {
    const file = path.join(folder, 'a.txt');
    const result = await read({ file_path: file }, context({ withStore: false }));
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('no file-state store');
  });

  it('rejects pages for non-PDF files and malformed page ranges', async () => {
    expect(text(await read({ file_path: path.join(folder, 'a.txt'), pages: '1' }))).toContain('only applies to PDF');
    expect(text(await read({ file_path: path.join(folder, 'doc.pdf'), pages: 'first' }))).toContain(
      'page number or range',
    );
    expect(text(await read({ file_path: path.join(folder, 'doc.pdf'), pages: '1-30' }))).toContain('at most 20');
  });
});

describe('Read: images, PDFs, notebooks', () => {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );

  it('returns images as base64 image blocks', async () => {
    const file = path.join(folder, 'pixel.png');
    await writeFile(file, png);
    const result = await read({ file_path: file });
    expect(result.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } },
    ]);
  });

  it('refuses a file with an image extension that is not an image', async () => {
    const file = path.join(folder, 'fake.jpg');
    await writeFile(file, 'not really');
    const result = await read({ file_path: file });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('not a PNG, JPEG, GIF or WebP');
  });

  it('extracts PDF text page by page, honouring pages', async () => {
    const file = path.join(folder, 'doc.pdf');
    await writeFile(file, makePdf(['First page text', 'Second page text', 'Third page text']));
    const all = text(await read({ file_path: file }));
    expect(all).toContain('--- Page 1 of 3 ---\nFirst page text');
    expect(all).toContain('--- Page 3 of 3 ---\nThird page text');
    const some = text(await read({ file_path: file, pages: '2-3' }));
    expect(some).not.toContain('First page');
    expect(some).toContain('Second page text');
    const past = await read({ file_path: file, pages: '7' });
    expect(past.isError).toBe(true);
    expect(text(past)).toContain('page 7 does not exist');
  });

  it('refuses a damaged PDF and asks for pages on a long one', async () => {
    const broken = path.join(folder, 'broken.pdf');
    await writeFile(broken, '%PDF-1.4\nthis is not a pdf');
    const result = await read({ file_path: broken });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('could not be opened');
    const long = path.join(folder, 'long.pdf');
    await writeFile(long, makePdf(Array.from({ length: 21 }, (_, index) => `Page ${index + 1}`)));
    expect(text(await read({ file_path: long }))).toContain('has 21 pages');
    expect(text(await read({ file_path: long, pages: '21' }))).toContain('Page 21');
  });

  it('shows notebooks as cells with outputs and records them', async () => {
    const file = path.join(folder, 'nb.ipynb');
    const notebook = {
      cells: [
        { cell_type: 'markdown', id: 'intro', metadata: {}, source: ['# Title\n', 'Some text'] },
        {
          cell_type: 'code',
          id: 'calc',
          metadata: {},
          execution_count: 1,
          source: 'print(1 + 1)',
          outputs: [
            { output_type: 'stream', name: 'stdout', text: ['2\n'] },
            {
              output_type: 'display_data',
              data: { 'image/png': png.toString('base64'), 'text/plain': ['<Figure>'] },
              metadata: {},
            },
            { output_type: 'error', ename: 'ValueError', evalue: 'bad', traceback: ['\u001b[31mTraceback\u001b[0m'] },
          ],
        },
      ],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
    };
    await writeFile(file, JSON.stringify(notebook, null, 1));
    const result = await read({ file_path: file });
    expect(Array.isArray(result.content)).toBe(true);
    const blocks = result.content as readonly { type: string; text?: string }[];
    expect(blocks[0]?.text).toContain('<cell id="intro" type="markdown"># Title\nSome text</cell>');
    expect(blocks[0]?.text).toContain('<cell id="calc" type="code">print(1 + 1)</cell>\n<output>2\n</output>');
    expect(blocks[1]?.type).toBe('image');
    expect(blocks[2]?.text).toContain('ValueError: bad\nTraceback');
    expect(store.get(file)?.partial).toBe(false);
  });

  it('refuses a notebook that is not valid JSON', async () => {
    const file = path.join(folder, 'bad.ipynb');
    await writeFile(file, '{"cells": [');
    const result = await read({ file_path: file });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('not valid JSON');
  });
});

describe('Read: runtime face', () => {
  it('is read-only, concurrency-safe and exposes its path', async () => {
    const input = { file_path: '/x/y.ts', offset: 10, limit: 5 };
    expect(readTool.isReadOnly(input)).toBe(true);
    expect(readTool.isConcurrencySafe(input)).toBe(true);
    expect(readTool.getPath(input)).toBe('/x/y.ts');
    expect(readTool.describeInput(input)).toBe('/x/y.ts (lines 10–14)');
    expect(readTool.userFacingName(input)).toBe('Read');
  });

  it('reads through a symbolic link and records the real path', async () => {
    const target = path.join(folder, 'real.txt');
    await writeFile(target, 'real\n');
    await mkdir(path.join(folder, 'links'), { recursive: true });
    const link = path.join(folder, 'links', 'alias.txt');
    await symlink(target, link);
    expect(text(await read({ file_path: link }))).toBe('     1\treal');
    expect(store.get(target)).toBeDefined();
  });
});
