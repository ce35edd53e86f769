import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileToolContext, runFileTool } from '../fs-helpers/file-tool-harness.js';
import { splitGlobs } from './build-ripgrep-args.js';
import { createGrepTool, grepTool } from './grep-tool.js';

let root: string;
const ctx = (signal?: AbortSignal) => createFileToolContext({ cwd: root, signal });
const grep = (input: Record<string, unknown>, tool = grepTool) => runFileTool(tool, input, ctx());
const text = (result: { content: unknown }) => String(result.content);
const at = (relative: string) => path.join(root, relative);

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'toolplane-grep-'));
  const files: Record<string, string> = {
    '.gitignore': 'build/\n',
    'src/app.ts': 'import x from "y";\nfunction main() {\n  return TODO;\n}\n',
    'src/util.ts': 'export const todo = 1;\nexport const other = 2;\n// TODO: later\n',
    'src/view.tsx': 'const TODO = "view";\n',
    'lib/script.py': 'def main():\n    pass  # TODO\n',
    'build/out.ts': 'TODO in build output\n',
    '.hidden/conf.ts': 'TODO hidden\n',
    'notes.md': '-dash pattern\nfirst line\nsecond line\n',
  };
  for (const [relative, content] of Object.entries(files)) {
    await mkdir(path.dirname(at(relative)), { recursive: true });
    await writeFile(at(relative), content);
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('Grep', () => {
  it('lists matching files sorted by path by default, skipping ignored files', async () => {
    const result = text(await grep({ pattern: 'TODO' }));
    expect(result).toBe(
      ['Found 5 files', '.hidden/conf.ts', 'lib/script.py', 'src/app.ts', 'src/util.ts', 'src/view.tsx']
        .map((entry, index) => (index === 0 ? entry : at(entry)))
        .join('\n'),
    );
  });

  it('shows content with line numbers, and context lines', async () => {
    const content = text(await grep({ pattern: 'return', output_mode: 'content', path: at('src') }));
    expect(content).toBe(`${at('src/app.ts')}:3:  return TODO;`);
    const around = text(
      await grep({ pattern: 'return', output_mode: 'content', path: at('src/app.ts'), '-B': 1, '-A': 1 }),
    );
    expect(around).toBe('2-function main() {\n3:  return TODO;\n4-}');
    const withoutNumbers = text(
      await grep({ pattern: 'return', output_mode: 'content', path: at('src/app.ts'), '-n': false, context: 0 }),
    );
    expect(withoutNumbers).toBe('  return TODO;');
  });

  it('counts matches per file with a total', async () => {
    const result = text(await grep({ pattern: 'TODO', output_mode: 'count', '-i': true, path: at('src') }));
    expect(result).toBe(
      `${at('src/app.ts')}:1\n${at('src/util.ts')}:2\n${at('src/view.tsx')}:1\n\nFound 4 total occurrences across 3 files.`,
    );
  });

  it('filters by glob (with braces and lists) and by type', async () => {
    expect(text(await grep({ pattern: 'TODO', glob: '*.{tsx,py}' }))).toBe(
      `Found 2 files\n${at('lib/script.py')}\n${at('src/view.tsx')}`,
    );
    expect(text(await grep({ pattern: 'TODO', glob: '*.py,*.tsx' }))).toBe(
      `Found 2 files\n${at('lib/script.py')}\n${at('src/view.tsx')}`,
    );
    expect(text(await grep({ pattern: 'TODO', type: 'py' }))).toBe(`Found 1 file\n${at('lib/script.py')}`);
    expect(splitGlobs('*.ts  *.{a,b},*.c')).toEqual(['*.ts', '*.{a,b}', '*.c']);
  });

  it('matches across lines only in multiline mode', async () => {
    expect(text(await grep({ pattern: 'first.line.second', path: at('notes.md') }))).toBe('No files found.');
    expect(text(await grep({ pattern: 'first.line.second', path: at('notes.md'), multiline: true }))).toContain(
      'notes.md',
    );
  });

  it('takes a pattern that starts with a dash as a pattern', async () => {
    expect(text(await grep({ pattern: '-dash', output_mode: 'content', path: at('notes.md') }))).toBe(
      '1:-dash pattern',
    );
  });

  it('pages with head_limit and offset, and says how to continue', async () => {
    const first = text(await grep({ pattern: 'TODO', head_limit: 2 }));
    expect(first).toBe(
      `Found 5 files\n${at('.hidden/conf.ts')}\n${at('lib/script.py')}\n\n(More results exist. Continue with offset 2, or narrow the search.)`,
    );
    const second = text(await grep({ pattern: 'TODO', head_limit: 2, offset: 2 }));
    expect(second).toContain(`${at('src/app.ts')}\n${at('src/util.ts')}`);
    const lines = text(
      await grep({ pattern: 'e', output_mode: 'content', path: at('notes.md'), head_limit: 1, offset: 1 }),
    );
    expect(lines).toBe('2:first line\n\n(More results exist. Continue with offset 2, or narrow the search.)');
    const all = text(await grep({ pattern: 'e', output_mode: 'content', path: at('notes.md'), head_limit: 0 }));
    expect(all.split('\n')).toHaveLength(3);
  });

  it('cuts output at the size limit and says so', async () => {
    const small = createGrepTool({ maxOutputChars: 40 });
    const result = text(await grep({ pattern: 'TODO', output_mode: 'content' }, small));
    expect(result).toContain('(Output cut at the size limit.');
  });

  it('shortens very long lines', async () => {
    await writeFile(at('long.txt'), `${'a'.repeat(2_000)}NEEDLE\n`);
    const result = text(await grep({ pattern: 'NEEDLE', output_mode: 'content', path: at('long.txt') }));
    expect(result.length).toBeLessThan(700);
    expect(result).toContain('omitted');
  });

  it('says when nothing matches', async () => {
    expect(text(await grep({ pattern: 'zzz-no-such-text', output_mode: 'content' }))).toBe('No matches found.');
    expect(text(await grep({ pattern: 'zzz-no-such-text', output_mode: 'count' }))).toBe('No matches found.');
  });

  it("returns ripgrep's message for an invalid regex", async () => {
    const result = await grep({ pattern: 'foo(' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('regex parse error');
    expect(text(result)).toContain('Fix the pattern');
  });

  it('refuses an empty pattern, a missing path and a negative offset', async () => {
    expect(text(await grep({ pattern: '' }))).toContain('pattern is empty');
    expect(text(await grep({ pattern: 'x', path: at('missing') }))).toContain('does not exist');
    expect((await grep({ pattern: 'x', offset: -1 })).isError).toBe(true);
  });

  it('stops ripgrep when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runFileTool(grepTool, { pattern: 'TODO' }, ctx(controller.signal));
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('aborted');
  });

  it('kills a running ripgrep when aborted mid-search', async () => {
    // ripgrep blocks reading a FIFO nobody writes to: only the abort can end this search.
    const fifo = at('blocked.fifo');
    execFileSync('mkfifo', [fifo]);
    const controller = new AbortController();
    const pending = runFileTool(grepTool, { pattern: 'x', path: fifo }, ctx(controller.signal));
    setTimeout(() => controller.abort(), 100);
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('aborted');
    await rm(fifo);
  });

  it('is read-only and concurrency-safe', () => {
    const input = { pattern: 'x', output_mode: 'content' as const, path: '/p' };
    expect(grepTool.isReadOnly(input)).toBe(true);
    expect(grepTool.isConcurrencySafe(input)).toBe(true);
    expect(grepTool.getPath(input)).toBe('/p');
    expect(grepTool.describeInput(input)).toBe('"x" in /p');
  });
});
