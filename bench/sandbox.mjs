// Sandbox benchmark: what bubblewrap adds to a command, per profile, against a raw spawn in the
// same run; and the Bash tool's figures again with the sandbox on (its `true`, and spilling 200 MiB
// of output), against the Bash tool without one. The policy is this machine's: the real home
// folder's credential stores are looked up on every launch. Run after `npm run build`.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX } from '../dist/contract/sandbox.js';
import { createServices } from '../dist/contract/services.js';
import { buildSandboxPolicy } from '../dist/permissions/sandbox-policy.js';
import { createBubblewrapSandbox } from '../dist/sandbox/bubblewrap-sandbox.js';
import { createBashTool } from '../dist/tools/bash/bash-tool.js';
import { SPILL_FOLDER, createSpillFolder } from '../dist/tools/bash/spill-folder.js';

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timeMs(operation) {
  const start = process.hrtime.bigint();
  await operation();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function spawnAndWait(file, args, env, extraFiles = []) {
  const fds = extraFiles.map((extra) => openSync(extra, 'r'));
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe', ...fds], detached: true });
    for (const fd of fds) closeSync(fd);
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
    child.stdout.resume();
    child.stderr.resume();
  });
}

function context(cwd, services, approval) {
  return {
    toolUseId: 'toolu_bench',
    signal: new AbortController().signal,
    cwd,
    sessionId: 'bench',
    agentId: 'main',
    permissionMode: 'default',
    services,
    reportProgress: () => undefined,
    approval,
  };
}

/** Runs the sandbox benchmark and returns its figures (or why it could not run). */
export async function run() {
  // Outside /tmp, which the sandbox replaces, like a real checkout.
  const folder = await mkdtemp('/var/tmp/toolplane-bench-sandbox-');
  try {
    const work = join(folder, 'work');
    await mkdir(join(work, '.git', 'hooks'), { recursive: true });
    await mkdir(join(folder, 'tmp'));
    const policy = buildSandboxPolicy({
      rules: [{ rule: 'Read(./.env)', behavior: 'deny', source: 'projectSettings', root: work }],
      cwd: work,
      homeDir: homedir(),
      tmpDir: join(folder, 'tmp'),
    });
    const sandbox = createBubblewrapSandbox({ policy });
    const status = await sandbox.status();
    if (!status.available) return { skipped: `no sandbox here: ${status.reason}` };
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: homedir() };
    const runs = 60;
    const raw = [];
    const profiles = { 'read-only': [], workspace: [] };
    for (let i = 0; i < runs; i += 1) {
      raw.push(await timeMs(() => spawnAndWait('bash', ['-c', 'true'], env)));
      for (const profile of Object.keys(profiles)) {
        profiles[profile].push(
          await timeMs(async () => {
            const launch = await sandbox.prepare({ profile, argv: ['bash', '-c', 'true'], cwd: work, env });
            await spawnAndWait(launch.file, launch.args, launch.env, launch.extraFiles);
            await launch.release();
          }),
        );
      }
    }
    const rawMedian = median(raw);
    const readOnlyMedian = median(profiles['read-only']);
    const workspaceMedian = median(profiles.workspace);

    const plainServices = createServices().set(SPILL_FOLDER, createSpillFolder({ path: join(folder, 'spill') }));
    const sandboxServices = createServices()
      .set(SPILL_FOLDER, createSpillFolder({ path: join(folder, 'spill') }))
      .set(SANDBOX, sandbox);
    const bash = createBashTool({ env: process.env });
    const readOnly = { by: 'read-only', readOnly: true };
    const byRule = { by: 'rule', readOnly: false };
    const plainTool = [];
    const sandboxedTool = [];
    for (let i = 0; i < 40; i += 1) {
      plainTool.push(await timeMs(() => bash.call({ command: 'true' }, context(work, plainServices, byRule))));
      sandboxedTool.push(await timeMs(() => bash.call({ command: 'true' }, context(work, sandboxServices, readOnly))));
    }
    const bytes = 200 * 1024 * 1024;
    const spillMs = await timeMs(() =>
      bash.call({ command: `head -c ${bytes} /dev/zero` }, context(work, sandboxServices, byRule)),
    );
    return {
      rawSpawnTrueMedianMs: Number(rawMedian.toFixed(2)),
      readOnlyTrueMedianMs: Number(readOnlyMedian.toFixed(2)),
      workspaceTrueMedianMs: Number(workspaceMedian.toFixed(2)),
      readOnlyAddedMs: Number((readOnlyMedian - rawMedian).toFixed(2)),
      workspaceAddedMs: Number((workspaceMedian - rawMedian).toFixed(2)),
      maskedPaths: policy.masked.length,
      bashToolTrueMedianMs: Number(median(plainTool).toFixed(2)),
      bashToolSandboxedTrueMedianMs: Number(median(sandboxedTool).toFixed(2)),
      sandboxedSpill200MiBMs: Number(spillMs.toFixed(0)),
      sandboxedSpillThroughputMiBPerS: Number((200 / (spillMs / 1000)).toFixed(0)),
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
