import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createResultStore } from './result-store.js';
import { savedOutputPath, spillResult } from './govern-size.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolplane-spill-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('savedOutputPath', () => {
  it('reads back the file a spilled result went to, which holds the whole text', async () => {
    const text = 'line\n'.repeat(20_000);
    const spilled = await spillResult(
      { type: 'tool_result', tool_use_id: 'big', content: text },
      { store: createResultStore({ directory: root }) },
    );
    const path = savedOutputPath(spilled.content);
    expect(path).toBeDefined();
    expect(await readFile(path!, 'utf8')).toBe(text);
  });

  it('names a saved file given by the tool, with text parts beside an image', async () => {
    const spilled = await spillResult(
      {
        type: 'tool_result',
        tool_use_id: 'cmd',
        content: [
          { type: 'text', text: 'x'.repeat(10_000) },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } },
        ],
      },
      { store: undefined, saved: { path: '/tmp/out; a.log', bytes: 10_000 } },
    );
    expect(savedOutputPath(spilled.content)).toBe('/tmp/out; a.log');
  });

  it('is undefined for a result that was cut with nowhere to save it, and for a look-alike', async () => {
    const cut = await spillResult(
      { type: 'tool_result', tool_use_id: 'c', content: 'y'.repeat(9_000) },
      { store: undefined },
    );
    expect(savedOutputPath(cut.content)).toBeUndefined();
    // A tool's own output that merely mentions the phrase is not a spill note.
    expect(savedOutputPath('cat says: The full output is saved in /etc/passwd; read it in parts')).toBeUndefined();
  });
});
