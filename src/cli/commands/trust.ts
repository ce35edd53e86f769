import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { settingsPaths } from '../../settings/settings-paths.js';
import { recordTrustAnswer } from '../../settings/record-trust-answer.js';
import { listProjectTrust, trustStoreKey } from '../../settings/trust-store.js';
import { UsageError } from '../args.js';
import type { CommandIo } from '../headless.js';

const USAGE = 'Usage: toolplane trust [DIR] | toolplane trust --revoke [DIR] | toolplane trust --list [--json]';

/**
 * `toolplane trust [DIR]`: lets the project's own files loosen the policy in that folder, in
 * every run there (headless included): its allow rules, `defaultMode`, additional directories,
 * `env`, hooks and MCP servers (`.toolplane/settings.json`, `.toolplane/settings.local.json`,
 * `.mcp.json`). Trust is per folder (symlinks resolved), never inherited by subfolders.
 * `--revoke` records the folder as not trusted; `--list` prints every answer on record. DIR
 * defaults to the working folder and must be an existing folder. Exit 0, or 1 when DIR is not a
 * folder, 2 for bad arguments.
 */
export async function runTrust(argv: readonly string[], io: CommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { revoke: { type: 'boolean' }, list: { type: 'boolean' }, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (
    positionals.length > 1 ||
    (values.list && (values.revoke || positionals.length > 0)) ||
    (values.json && !values.list)
  ) {
    throw new UsageError(USAGE);
  }
  const paths = settingsPaths({ cwd: io.cwd, env: io.env, homeDir: io.homeDir });
  const storeFile = paths.trustStore;
  if (values.list) {
    const { entries, damaged } = await listProjectTrust({ storeFile });
    if (damaged)
      io.stderr.write(`warning: ${storeFile} is damaged; no folder counts as trusted until it is rewritten\n`);
    if (values.json) io.stdout.write(`${JSON.stringify(entries)}\n`);
    else if (entries.length === 0) io.stdout.write('No folder has been trusted or refused yet.\n');
    else
      for (const entry of entries)
        io.stdout.write(`${entry.trust === 'trusted' ? 'trusted  ' : 'untrusted'}  ${entry.projectDir}\n`);
    return 0;
  }
  const folder = resolve(io.cwd, positionals[0] ?? '.');
  const isFolder = await stat(folder).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (!isFolder) {
    io.stderr.write(`toolplane: ${folder} is not a folder.\n`);
    return 1;
  }
  const key = await trustStoreKey(folder);
  const { forgotOtherTrust } = await recordTrustAnswer({
    storeFile,
    holdsFile: paths.heldSettings,
    projectDir: folder,
    trust: values.revoke ? 'untrusted' : 'trusted',
  });
  if (forgotOtherTrust)
    io.stderr.write(
      `warning: ${storeFile} had been changed by a tool call; the other folders it trusted are no longer trusted (trust them again if you meant to)\n`,
    );
  io.stdout.write(
    values.revoke
      ? `No longer trusted: ${key}. Only the deny and ask rules of its own settings apply there now.\n`
      : `Trusted: ${key}. Its .toolplane settings and .mcp.json now apply in full in every run there (allow rules, defaultMode, additional directories, env, hooks, MCP servers). Undo with toolplane trust --revoke ${key}\n`,
  );
  return 0;
}
