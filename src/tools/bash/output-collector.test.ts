import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
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

describe('createOutputCollector without a usable spill file', () => {
  it('keeps the head and tail and says the full output could not be saved', () => {
    const spillFile = path.join(root, 'missing-folder', 'spill.log');
    const collector = createOutputCollector({ limitBytes: 4, spillFile });
    collector.write(Buffer.from('abcdef'));
    collector.write(Buffer.from('ghij'));
    const result = collector.finish();
    expect(result.spilledTo).toBeUndefined();
    expect(result.totalBytes).toBe(10);
    expect(result.text).toMatch(
      /^ab\n\n\.\.\. \[6 bytes omitted; the full output \(10 bytes\) could not be saved \(ENOENT[^)]*\); re-run/,
    );
    expect(result.text.endsWith('] ...\n\nij')).toBe(true);
  });
});

describe('createOutputCollector properties', () => {
  it('keeps every byte in the spill file and at most the limit in the model view', async () => {
    let trial = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 64 }),
        fc.array(fc.uint8Array({ minLength: 0, maxLength: 50 }), { maxLength: 40 }),
        async (limitBytes, chunks) => {
          trial += 1;
          const spillFile = path.join(root, `property-${trial}.log`);
          const collector = createOutputCollector({ limitBytes, spillFile });
          for (const chunk of chunks) collector.write(Buffer.from(chunk));
          const result = collector.finish();
          const all = Buffer.concat(chunks.map((chunk) => Buffer.from(chunk)));
          expect(result.totalBytes).toBe(all.length);
          if (all.length <= limitBytes) {
            expect(result.spilledTo).toBeUndefined();
            expect(result.text).toBe(all.toString('utf8'));
          } else {
            expect(result.spilledTo).toBe(spillFile);
            expect((await readFile(spillFile)).equals(all)).toBe(true);
            const note = result.text.indexOf('\n\n... [');
            const view = result.text.slice(0, note) + result.text.slice(result.text.indexOf('] ...\n\n') + 7);
            expect(Buffer.byteLength(view)).toBeLessThanOrEqual(limitBytes * 3);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
