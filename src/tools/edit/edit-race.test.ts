import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStateStore, type FileStateStore } from '../file-state/file-state-store.js';
import { createFileToolContext, runFileTool } from '../fs-helpers/file-tool-harness.js';
import { readTool } from '../read/read-tool.js';
import { editTool } from './edit-tool.js';

// A separate process that, on request, waits a given number of microseconds (busy, for precision)
// and then appends a marker line to the file, answering with the monotonic time it finished.
// process.hrtime reads CLOCK_MONOTONIC, which every process on the machine shares.
const MODIFIER = `
const fs = require('node:fs');
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const [file, delay, marker] = line.split(' ');
  const until = process.hrtime.bigint() + BigInt(delay) * 1000n;
  while (process.hrtime.bigint() < until);
  fs.appendFileSync(file, marker + '\\n');
  process.stdout.write(marker + ' ' + process.hrtime.bigint() + '\\n');
});
`;

const TRIALS = Number(process.env.RACE_TRIALS ?? 1_000);
const ORIGINAL = 'header\nvalue = 1\nfooter\n';
const EDITED = 'header\nvalue = 2\nfooter\n';

let folder: string;

beforeAll(async () => {
  // tmpfs when the machine has one: the guard is the same, and without disk fsyncs 1,000 trials take seconds.
  const base = await access('/dev/shm', constants.W_OK).then(
    () => '/dev/shm',
    () => os.tmpdir(),
  );
  folder = await mkdtemp(path.join(base, 'toolplane-race-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** A store that notes when it was last consulted: the final staleness check starts with a lookup. */
function observedStore(): { store: FileStateStore; lastLookup: () => bigint } {
  const inner = createFileStateStore();
  let last = 0n;
  return {
    store: {
      ...inner,
      get(filePath) {
        last = process.hrtime.bigint();
        return inner.get(filePath);
      },
    },
    lastLookup: () => last,
  };
}

describe('Edit against a concurrent writer', () => {
  it(`never overwrites a change made before its final check (${TRIALS} trials)`, async () => {
    const child = spawn(process.execPath, ['-e', MODIFIER], { stdio: ['pipe', 'pipe', 'inherit'] });
    const replies = createInterface({ input: child.stdout });
    const pending: ((line: string) => void)[] = [];
    replies.on('line', (line) => pending.shift()?.(line));
    const modify = (file: string, delayMicros: number, marker: string) =>
      new Promise<bigint>((resolve) => {
        pending.push((line) => resolve(BigInt(line.split(' ')[1] ?? '0')));
        child.stdin.write(`${file} ${delayMicros} ${marker}\n`);
      });
    const file = path.join(folder, 'contested.txt');
    const outcomes = { editWon: 0, refusedStale: 0, lostInWindow: 0 };
    // The random delays are aimed at twice the median time Read + Edit take (measured over the
    // first 50 trials, at most 10 ms), so changes land before, during and after the edit.
    let spanMicros = 2_000;
    const durations: number[] = [];
    try {
      for (let trial = 0; trial < TRIALS; trial++) {
        await writeFile(file, ORIGINAL);
        const { store, lastLookup } = observedStore();
        const context = createFileToolContext({ cwd: folder, store });
        const marker = `marker-${trial}`;
        const started = process.hrtime.bigint();
        const modified = modify(file, Math.floor(Math.random() * spanMicros), marker);
        await runFileTool(readTool, { file_path: file }, context);
        const result = await runFileTool(
          editTool,
          { file_path: file, old_string: 'value = 1', new_string: 'value = 2' },
          context,
        );
        const editDone = process.hrtime.bigint();
        const modifiedAt = await modified;
        const finalCheckAt = lastLookup();
        if (trial < 50) durations.push(Number((editDone - started) / 1000n));
        if (trial === 49) spanMicros = Math.min(10_000, 2 * (durations.sort((a, b) => a - b)[25] ?? 1_000));
        const final = await readFile(file, 'utf8');
        if (result.isError === true) {
          expect(String(result.content)).toContain('has changed on disk');
          expect(final).toBe(`${ORIGINAL}${marker}\n`);
          outcomes.refusedStale++;
        } else if (final === `${EDITED}${marker}\n`) {
          outcomes.editWon++;
        } else {
          // The only acceptable loss: a change that completed after the final check began (it is
          // then reported to the model when it landed in the replaced file; see commit-guarded-write).
          expect(final).toBe(EDITED);
          expect(
            modifiedAt > finalCheckAt,
            `trial ${trial}: a change finished before the final check was overwritten`,
          ).toBe(true);
          outcomes.lostInWindow++;
        }
      }
    } finally {
      child.kill();
    }
    expect(outcomes.editWon + outcomes.refusedStale + outcomes.lostInWindow).toBe(TRIALS);
    // Both ways must actually happen, or the trials did not test the race at all.
    expect(outcomes.editWon).toBeGreaterThan(0);
    expect(outcomes.refusedStale).toBeGreaterThan(0);
  });
});
