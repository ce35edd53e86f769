import { spawn } from 'node:child_process';
import { chmodSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { NOBODY } from './fixture.js';
import type { JobOutcome, SandboxJob } from './sandbox-runner.js';

const bundles = new Map<string, Promise<string>>();

/**
 * Compiles the runner from the current sources (never a stale dist/) into `suiteRoot`, where the
 * unprivileged user can read it.
 */
function runnerBundle(suiteRoot: string): Promise<string> {
  let bundle = bundles.get(suiteRoot);
  if (bundle === undefined) {
    const file = path.join(suiteRoot, 'runner.mjs');
    bundle = build({
      entryPoints: [path.join(import.meta.dirname, 'runner-main.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: file,
      logLevel: 'silent',
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    }).then(() => {
      chmodSync(file, 0o644);
      return file;
    });
    bundles.set(suiteRoot, bundle);
  }
  return bundle;
}

/**
 * Runs the jobs as `nobody` (uid and gid 65534, no groups, no capabilities) through setpriv, with
 * the runner bundled from the sources. `prefix` goes before `node` (a program that sets something
 * up in the runner's process and then runs it, such as a keyring).
 */
export async function runJobsAsNobody(
  suiteRoot: string,
  jobs: readonly SandboxJob[],
  options: { readonly prefix?: readonly string[] } = {},
): Promise<JobOutcome[]> {
  const bundle = await runnerBundle(suiteRoot);
  const args = [
    '--reuid',
    String(NOBODY),
    '--regid',
    String(NOBODY),
    '--clear-groups',
    '--inh-caps=-all',
    '--',
    ...(options.prefix ?? []),
    process.execPath,
    bundle,
  ];
  return runJsonProcess('setpriv', args, jobs);
}

/** Runs the bundled runner as ourselves, under `prefix` (for set-ups that must happen in the runner's own process). */
export async function runJobsInChild(
  suiteRoot: string,
  jobs: readonly SandboxJob[],
  prefix: readonly string[],
): Promise<JobOutcome[]> {
  const bundle = await runnerBundle(suiteRoot);
  const [file = process.execPath, ...rest] = [...prefix, process.execPath, bundle];
  return runJsonProcess(file, rest, jobs);
}

function runJsonProcess(file: string, args: readonly string[], jobs: readonly SandboxJob[]): Promise<JobOutcome[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...args], {
      cwd: '/',
      env: { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8', HOME: '/nonexistent' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      try {
        resolve(JSON.parse(stdout) as JobOutcome[]);
      } catch {
        reject(new Error(`the runner (${file}) exited with ${code}: ${stderr.slice(0, 2000)}`));
      }
    });
    child.stdin.end(JSON.stringify(jobs));
  });
}
