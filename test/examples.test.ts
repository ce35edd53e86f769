import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));

describe('examples', () => {
  it('the custom agent runs offline on the public API (package exports)', async () => {
    const { stdout, stderr } = await run(process.execPath, ['examples/custom-agent.mjs'], { cwd: root, env: { PATH: process.env.PATH ?? '' } });
    expect(stdout).toContain('Read: success');
    expect(stdout).toContain('CountLines: success');
    expect(stdout).toContain('[success after 3 turns]');
    expect(stderr).toContain('[hook] Read');
  });
});
