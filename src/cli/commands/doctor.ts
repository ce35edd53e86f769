import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { arch, platform, release, tmpdir } from 'node:os';
import path from 'node:path';
import type { SandboxPolicy, SandboxProfile } from '../../contract/sandbox.js';
import { buildSandboxPolicy } from '../../permissions/sandbox-policy.js';
import { createBubblewrapSandbox } from '../../sandbox/bubblewrap-sandbox.js';
import { probeBubblewrap } from '../../sandbox/probe-bubblewrap.js';
import { seccompSupported } from '../../sandbox/seccomp-filter.js';
import { bubblewrapVersion, runSandboxed } from '../../sandbox/run-sandboxed.js';
import { loadSettings } from '../../settings/load-settings.js';
import { configDirectory } from '../../session/index.js';
import { parseCommandArgs } from './command-args.js';
import type { CommandIo } from '../headless.js';

type Check = { readonly name: string; readonly ok: boolean; readonly detail: string };

/**
 * `toolplane doctor [--json] [--settings FILE|JSON]`: whether Bash commands can be sandboxed here
 * and why not, a live self-test of both profiles in a scratch folder, and the policy this folder's
 * settings give (masked, write-protected and writable paths, network, what is not enforced).
 * Exit 0 when the sandbox works, 1 when it does not (or is turned off).
 */
export async function runDoctor(argv: readonly string[], io: CommandIo): Promise<number> {
  const values = parseCommandArgs(argv, { json: { type: 'boolean' }, settings: { type: 'string' } });
  const settings = await loadSettings({
    cwd: io.cwd,
    env: io.env,
    homeDir: io.homeDir,
    session: 'headless',
    ...(values.settings ? { cli: { settings: values.settings } } : {}),
  });
  const configDir = configDirectory(io.env, io.homeDir);
  // A fresh probe: the doctor is where a cached answer gets checked again.
  const probe = await probeBubblewrap({
    env: io.env,
    ...(io.env.TOOLPLANE_BWRAP ? { bwrap: io.env.TOOLPLANE_BWRAP } : {}),
  });
  const version = probe.bwrap ? await bubblewrapVersion(probe.bwrap) : undefined;
  const scratch = await mkdtemp(path.join(tmpdir(), 'toolplane-doctor-'));
  try {
    const policy = buildSandboxPolicy({
      rules: settings.rules,
      cwd: io.cwd,
      additionalDirectories: settings.additionalDirectories.map((directory) => directory.path),
      homeDir: io.homeDir,
      tmpDir: path.join(configDir, 'tmp', 'doctor'),
      settings: settings.sandbox,
      configDir,
    });
    const checks = probe.status.available && settings.sandbox.enabled ? await selfTest(scratch, probe.bwrap) : [];
    const ok = probe.status.available && settings.sandbox.enabled && checks.every((check) => check.ok);
    const report = {
      sandbox: probe.status,
      enabled: settings.sandbox.enabled,
      bubblewrap: version ?? null,
      platform: `${platform()} ${arch()}, kernel ${release()}`,
      unixSockets: !seccompSupported()
        ? 'not blocked on this architecture'
        : policy.allowUnixSockets
          ? 'allowed (allowAllUnixSockets)'
          : 'refused (seccomp)',
      checks,
      policy,
    };
    if (values.json) io.stdout.write(`${JSON.stringify(report)}\n`);
    else io.stdout.write(describeReport(report, ok));
    return ok ? 0 : 1;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function describeReport(
  report: {
    sandbox: { available: boolean; reason?: string; fix?: string; backend?: string };
    enabled: boolean;
    bubblewrap: string | null;
    platform: string;
    unixSockets: string;
    checks: readonly Check[];
    policy: SandboxPolicy;
  },
  ok: boolean,
): string {
  const lines: string[] = [];
  if (!report.enabled)
    lines.push('sandbox: turned off by sandbox.enabled = false — Bash commands run with your full access');
  else if (report.sandbox.available)
    lines.push(
      `sandbox: ${ok ? 'working' : 'FAILED its self-test'} — ${report.sandbox.backend ?? ''}${report.bubblewrap ? `, ${report.bubblewrap}` : ''}`,
    );
  else lines.push(`sandbox: NOT available — ${report.sandbox.reason ?? ''}`, `  fix: ${report.sandbox.fix ?? ''}`);
  lines.push(`platform: ${report.platform}`);
  for (const check of report.checks) lines.push(`  ${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}`);
  const { policy } = report;
  lines.push(
    `network in the workspace profile: ${policy.network ? 'on' : 'off'} (the read-only profile never has one)`,
  );
  lines.push(`Unix sockets: ${report.unixSockets}`);
  lines.push('private /tmp: a folder per session, tmp/ beside its transcript (also $TMPDIR inside the sandbox)');
  const list = (title: string, entries: readonly string[]) => {
    lines.push(`${title} (${entries.length}):`);
    for (const entry of entries) lines.push(`  ${entry}`);
  };
  const present = (entries: readonly string[]) => entries.filter((entry) => existsSync(entry));
  list('masked, unreadable in both profiles (those that exist now)', present(policy.masked));
  list(
    'read-only in the workspace profile even inside the working folders (those that exist now; missing ones cannot be created)',
    present(policy.writeProtected),
  );
  list('writable in the workspace profile', [...policy.workingFolders, ...policy.writable]);
  list('asked for but not enforced', policy.unenforced);
  if (policy.excludedCommands.length > 0) list('excluded commands (ask, then run outside)', policy.excludedCommands);
  lines.push(
    'Not contained by the sandbox: hook commands and MCP servers (they run outside it), and abstract Unix sockets when the network is on.',
  );
  return `${lines.join('\n')}\n`;
}

/** Runs both profiles for real in a scratch folder with a masked secret of its own. */
async function selfTest(scratch: string, bwrap: string | undefined): Promise<Check[]> {
  const work = path.join(scratch, 'work');
  const home = path.join(scratch, 'home');
  await mkdirs(work, path.join(home, '.ssh'), path.join(scratch, 'tmp'));
  await writeFile(path.join(home, '.ssh', 'id_test'), 'doctor-secret');
  await writeFile(path.join(work, '.env'), 'doctor-env-secret');
  const sandbox = createBubblewrapSandbox({
    ...(bwrap ? { bwrap } : {}),
    policy: buildSandboxPolicy({
      rules: [{ rule: 'Read(./.env)', behavior: 'deny', source: 'cli', root: work }],
      cwd: work,
      homeDir: home,
      tmpDir: path.join(scratch, 'tmp'),
    }),
  });
  const run = async (profile: SandboxProfile, script: string) => {
    const result = await runSandboxed(sandbox, {
      profile,
      argv: ['/bin/sh', '-c', script],
      cwd: work,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
    });
    return { output: `${result.stdout}${result.stderr}` };
  };
  const readOnly = await run('read-only', 'touch probe 2>&1; echo tmp > /tmp/t && cat /tmp/t');
  const workspace = await run(
    'workspace',
    'touch probe && echo wrote; mkdir -p .git/hooks 2>/dev/null; cat .env ~/.ssh/id_test 2>&1',
  );
  return [
    {
      name: 'read-only profile refuses writes',
      ok: /Read-only file system/.test(readOnly.output),
      detail: firstLine(readOnly.output),
    },
    {
      name: 'read-only profile has a private /tmp',
      ok: /\btmp\b/.test(readOnly.output.split('\n').slice(1).join('\n')),
      detail: 'a write to /tmp and its read back',
    },
    {
      name: 'workspace profile writes the working folder',
      ok: workspace.output.includes('wrote'),
      detail: firstLine(workspace.output),
    },
    {
      name: 'masked secrets are unreadable',
      ok:
        !workspace.output.includes('doctor-secret') &&
        !workspace.output.includes('doctor-env-secret') &&
        /Permission denied/.test(workspace.output),
      detail: 'a Read-denied .env and ~/.ssh',
    },
  ];
}

async function mkdirs(...folders: string[]): Promise<void> {
  for (const folder of folders) await mkdir(folder, { recursive: true });
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
