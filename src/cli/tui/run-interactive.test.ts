import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { InteractiveHost } from './interactive-host.js';
import { EXIT_NOT_A_TERMINAL, runInteractive } from './run-interactive.js';

describe('runInteractive', () => {
  it('refuses to start without a terminal on stdin, says what to do instead, and touches nothing', async () => {
    const calls: string[] = [];
    const host = new Proxy({} as InteractiveHost, {
      get: (_target, name) => () => {
        calls.push(String(name));
      },
    });
    const stderr = new PassThrough();
    let written = '';
    stderr.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
    const code = await runInteractive(host, {
      stdin: new PassThrough() as unknown as NodeJS.ReadStream,
      stdout: new PassThrough() as unknown as NodeJS.WriteStream,
      stderr: stderr as unknown as NodeJS.WriteStream,
    });
    expect(code).toBe(EXIT_NOT_A_TERMINAL);
    expect(written).toContain('needs a terminal');
    expect(written).toContain('-p "PROMPT"');
    expect(calls).toEqual([]);
  });
});
