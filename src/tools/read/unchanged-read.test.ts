import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolCallContext } from '../../contract/tool.js';
import { createServices } from '../../contract/services.js';
import { createFileStateStore, fileStateService, type FileStateStore } from '../file-state/file-state-store.js';
import { createFileToolContext, runFileTool } from '../fs-helpers/file-tool-harness.js';
import { editTool } from '../edit/edit-tool.js';
import { readTool } from './read-tool.js';
import { CONTEXT_RESULTS } from './unchanged-read.js';

describe('Read of a file unchanged since an earlier Read whose result is still in the context', () => {
  let folder: string;
  let file: string;
  let store: FileStateStore;
  let held: Set<string>;
  let calls = 0;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolplane-reread-'));
    file = join(folder, 'notes.txt');
    await writeFile(file, 'one\ntwo\nthree\n');
    store = createFileStateStore();
    held = new Set();
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  /** Reads as call `id`; the result then enters the "context" the way the session would record it. */
  const read = async (input: Record<string, unknown>, options: { withService?: boolean } = {}) => {
    const id = `toolu_${++calls}`;
    const services = createServices().set(fileStateService, store);
    if (options.withService !== false) services.set(CONTEXT_RESULTS, { holds: (toolUseId) => held.has(toolUseId) });
    const context: ToolCallContext = {
      toolUseId: id,
      signal: new AbortController().signal,
      cwd: folder,
      sessionId: 's',
      agentId: 'main',
      permissionMode: 'default',
      services,
      reportProgress: () => undefined,
    };
    const result = await runFileTool(readTool, { file_path: file, ...input }, context);
    held.add(id);
    return { id, text: String(result.content) };
  };

  it('answers with a one-line pointer to the earlier result instead of the content', async () => {
    const first = await read({});
    expect(first.text).toContain('1\tone');
    const second = await read({});
    expect(second.text).not.toContain('one');
    expect(second.text).toContain(`unchanged since your earlier Read of the same lines (tool call ${first.id})`);
    // A third read still points at the result that holds the content.
    expect((await read({})).text).toContain(`tool call ${first.id}`);
  });

  it('reads for real when the earlier result is no longer in the context', async () => {
    const first = await read({});
    held.delete(first.id);
    expect((await read({})).text).toContain('1\tone');
  });

  it('reads for real without a host that can tell what the context holds', async () => {
    await read({}, { withService: false });
    expect((await read({}, { withService: false })).text).toContain('1\tone');
  });

  it('reads for real a different range of the same file', async () => {
    await read({ offset: 1, limit: 2 });
    expect((await read({ offset: 2, limit: 2 })).text).toContain('2\ttwo');
    expect((await read({})).text).toContain('3\tthree');
  });

  it('reads for real a file whose bytes changed even when its size and mtime did not', async () => {
    await read({});
    const before = await stat(file);
    await writeFile(file, 'one\ntwo\nthree\n'.replace('two', 'TWO'));
    await utimes(file, before.atime, before.mtime);
    expect((await read({})).text).toContain('2\tTWO');
  });

  it('still lets an edit go through after a re-read answered with the pointer (the write guard holds)', async () => {
    await read({});
    await read({});
    const context = { ...createFileToolContext({ cwd: folder, store }), toolUseId: 'toolu_edit' };
    const edit = await runFileTool(editTool, { file_path: file, old_string: 'two', new_string: 'deux' }, context);
    expect(edit.isError).not.toBe(true);
    expect(await readFile(file, 'utf8')).toBe('one\ndeux\nthree\n');
    // After the edit the earlier result is stale: the next read is a real one.
    expect((await read({})).text).toContain('2\tdeux');
  });
});
