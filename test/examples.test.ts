import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));

describe('examples', () => {
  it('the custom agent runs offline on the public API (package exports)', async () => {
    const { stdout, stderr } = await run(process.execPath, ['examples/custom-agent.mjs'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(stdout).toContain('Read: success');
    expect(stdout).toContain('CountLines: success');
    expect(stdout).toContain('[success after 3 turns]');
    expect(stderr).toContain('[hook] Read');
  });

  it('the agent session runs offline on the public API: plan mode, a subagent, clear and resume', async () => {
    const { stdout } = await run(process.execPath, ['examples/agent-session.mjs'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '' },
    });
    const lines = stdout.split('\n');
    // Plan mode holds the write back until the plan is approved; the hook sees every call and its mode.
    expect(lines).toContain('[hook] WriteReport in plan mode');
    expect(lines.slice(0, 8)).toEqual([
      '[hook] EnterPlanMode in default mode',
      'EnterPlanMode: success',
      '[hook] WriteReport in plan mode',
      'WriteReport: denied',
      '[hook] ExitPlanMode in plan mode',
      'ExitPlanMode: success',
      '[hook] WriteReport in default mode',
      'WriteReport: success',
    ]);
    // The subagent's own call goes through the same gate chain and hooks.
    expect(lines).toContain('[hook] ListReports in default mode');
    expect(lines).toContain('Agent: success');
    expect(lines).toContain('cleared: 0 messages');
    expect(lines).toContain('resumed the same session: 12 messages');
    expect(lines).toContain('[success] Resumed: the weekly report is still there.');
    expect(lines).toContain('report: "# Weekly\\nAll green."');
  });
});
