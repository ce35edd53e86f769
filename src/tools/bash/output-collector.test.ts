import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutputCollector } from './output-collector.js';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'toolplane-collector-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('createOutputCollector', () => {
  it('keeps output under the limit in memory and writes no file', () => {
    const collector = createOutputCollector({ limitBytes: 10, spillFile: path.join(root, 'unused.log') });
    collector.write(Buffer.from('hello'));
    collector.write(Buffer.from('world'));
    expect(collector.finish()).toEqual({ text: 'helloworld', totalBytes: 10, spilledTo: undefined });
  });

  it('spills everything past the limit and never cuts a character in half', async () => {
    const spillFile = path.join(root, 'spill.log');
    const collector = createOutputCollector({ limitBytes: 9, spillFile });
    const text = 'ééééé' + 'x'.repeat(100) + 'ééééé';
    for (const char of text) collector.write(Buffer.from(char));
    const result = collector.finish();
    expect(result.spilledTo).toBe(spillFile);
    expect(result.totalBytes).toBe(Buffer.byteLength(text));
    expect(await readFile(spillFile, 'utf8')).toBe(text);
    expect(result.text.startsWith('éé\n\n... [')).toBe(true);
    expect(result.text.endsWith('] ...\n\néé')).toBe(true);
    expect(result.text).not.toContain('\uFFFD');
  });
});
