import { describe, expect, it } from 'vitest';
import { runCommandHook, type RunCommandHookOptions } from './run-command-hook.js';

const signal = new AbortController().signal;

function run(command: string, extra: Partial<RunCommandHookOptions> = {}) {
  return runCommandHook({
    command,
    stdin: '{"a":1}',
    env: { PATH: process.env['PATH'] ?? '' },
    cwd: process.cwd(),
    timeoutMs: 10_000,
    signal,
    ...extra,
  });
}

describe('runCommandHook', () => {
  it('passes stdin and collects stdout, stderr and the exit code', async () => {
    expect(await run('cat; echo err >&2; exit 3')).toEqual({
      kind: 'exited',
      exitCode: 3,
      exitSignal: null,
      stdout: '{"a":1}',
      stderr: 'err\n',
    });
  });

  it('survives a hook that never reads stdin', async () => {
    expect(await run('exit 0', { stdin: 'x'.repeat(1024 * 1024) })).toMatchObject({ kind: 'exited', exitCode: 0 });
  });

  it('keeps at most 1 MiB of output', async () => {
    const result = await run('head -c 3000000 /dev/zero | tr "\\0" x');
    expect(result.kind === 'exited' && result.stdout.length).toBe(1024 * 1024);
  });

  it('does not wait for a background child that holds the pipes open', async () => {
    const result = await run('sleep 5 & echo started', { timeoutMs: 3_000 });
    expect(result).toMatchObject({ kind: 'exited', exitCode: 0, stdout: 'started\n' });
  });

  it('reports a shell that cannot be started', async () => {
    expect(await run('true', { shell: '/nonexistent/shell' })).toMatchObject({ kind: 'spawn-error' });
  });

  it('is cancelled by an aborted signal without starting', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await run('touch /tmp/never', { signal: controller.signal })).toEqual({ kind: 'cancelled' });
  });

  it('reports a timeout with the output so far', async () => {
    expect(await run('echo partial; sleep 10', { timeoutMs: 1500 })).toEqual({
      kind: 'timeout',
      stdout: 'partial\n',
      stderr: '',
    });
  });
});
