import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileToolContext, runFileTool } from '../fs-helpers/file-tool-harness.js';
import { createGlobTool, globTool } from './glob-tool.js';

let root: string;
const ctx = () => createFileToolContext({ cwd: root });
const text = (result: { content: unknown }) => String(result.content);

async function file(relative: string, ageSeconds: number): Promise<void> {
  const full = path.join(root, relative);
  await mkdir(path.dirname(full), { recursive: true });
  await writeFile(full, relative);
  const time = new Date(Date.now() - ageSeconds * 1_000);
  await utimes(full, time, time);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'toolplane-glob-'));
  await file('.gitignore', 100);
  await writeFile(path.join(root, '.gitignore'), 'ignored/\n*.log\n');
  await file('top.ts', 50);
  await file('src/old.ts', 300);
  await file('src/new.ts', 10);
  await file('src/deep/mid.ts', 200);
  await file('src/readme.md', 5);
  await file('.config/hidden.ts', 400);
  await file('ignored/skip.ts', 1);
  await file('debug.log', 1);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('Glob', () => {
  it('matches at any depth with ** and sorts newest first, skipping ignored files', async () => {
    const result = text(await runFileTool(globTool, { pattern: '**/*.ts' }, ctx()));
    expect(result.split('\n')).toEqual(
      ['src/new.ts', 'top.ts', 'src/deep/mid.ts', 'src/old.ts', '.config/hidden.ts'].map((relative) =>
        path.join(root, relative),
      ),
    );
  });

  it('matches * within one folder only, relative to path', async () => {
    expect(text(await runFileTool(globTool, { pattern: '*.ts' }, ctx()))).toBe(path.join(root, 'top.ts'));
    const inSrc = text(await runFileTool(globTool, { pattern: '*.{ts,md}', path: path.join(root, 'src') }, ctx()));
    expect(inSrc.split('\n')).toEqual(
      ['src/readme.md', 'src/new.ts', 'src/old.ts'].map((relative) => path.join(root, relative)),
    );
  });

  it('accepts a pattern with a folder prefix or an absolute pattern', async () => {
    expect(text(await runFileTool(globTool, { pattern: 'src/deep/*.ts' }, ctx()))).toBe(
      path.join(root, 'src/deep/mid.ts'),
    );
    expect(text(await runFileTool(globTool, { pattern: path.join(root, 'src', '**', 'mid.ts') }, ctx()))).toBe(
      path.join(root, 'src/deep/mid.ts'),
    );
    expect(text(await runFileTool(globTool, { pattern: 'src/new.ts' }, ctx()))).toBe(path.join(root, 'src/new.ts'));
  });

  it('caps the list and says so', async () => {
    const result = text(await runFileTool(createGlobTool({ maxResults: 2 }), { pattern: '**/*.ts' }, ctx()));
    expect(result).toContain('Results are truncated: showing the 2 most recently modified of 5 matches');
    const stopped = text(
      await runFileTool(createGlobTool({ maxResults: 2, maxCandidates: 3 }), { pattern: '**/*.ts' }, ctx()),
    );
    expect(stopped).toContain('of 3+ matches');
  });

  it('says when nothing matches', async () => {
    expect(text(await runFileTool(globTool, { pattern: '**/*.rs' }, ctx()))).toBe('No files found.');
    expect(text(await runFileTool(globTool, { pattern: 'nowhere/**/*.ts' }, ctx()))).toBe('No files found.');
  });

  it('refuses an empty pattern, a missing folder, a file as folder and "undefined"', async () => {
    expect(text(await runFileTool(globTool, { pattern: '  ' }, ctx()))).toContain('pattern is empty');
    expect(text(await runFileTool(globTool, { pattern: '*', path: path.join(root, 'missing') }, ctx()))).toContain(
      'does not exist',
    );
    expect(text(await runFileTool(globTool, { pattern: '*', path: path.join(root, 'top.ts') }, ctx()))).toContain(
      'is a file, not a folder',
    );
    expect(text(await runFileTool(globTool, { pattern: '*', path: 'undefined' }, ctx()))).toContain('omit path');
    const folder = await runFileTool(globTool, { pattern: 'src' }, ctx());
    expect(folder.isError).toBe(true);
    expect(text(folder)).toContain('is a directory');
  });

  it('is read-only and concurrency-safe', () => {
    expect(globTool.isReadOnly({ pattern: '*' })).toBe(true);
    expect(globTool.isConcurrencySafe({ pattern: '*' })).toBe(true);
    expect(globTool.describeInput({ pattern: '*.ts', path: '/x' })).toBe('*.ts in /x');
  });
});
