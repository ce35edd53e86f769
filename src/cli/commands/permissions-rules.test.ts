import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandIo } from '../headless.js';
import { runPermissionsRevoke } from './permissions-rules.js';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'toolplane-revoke-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Runs `permissions revoke` in-process with the managed policy read from `managed`. */
async function revoke(args: string[], managed: string) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => (out += String(chunk)));
  stderr.on('data', (chunk) => (err += String(chunk)));
  const io: CommandIo = {
    stdout,
    stderr,
    stdin: new PassThrough(),
    env: {},
    cwd: folder,
    homeDir: folder,
    managedSettingsFile: managed,
  };
  const code = await runPermissionsRevoke(args, io);
  return { code, stdout: out, stderr: err };
}

describe('permissions revoke of a managed rule', () => {
  it('refuses, says the administrator owns it, and leaves the managed file as it was', async () => {
    const managed = join(folder, 'managed-settings.json');
    const policy = '{ "permissions": { "allow": ["Bash(make:*)"], "deny": ["Bash(curl:*)"] } }\n';
    await writeFile(managed, policy);
    const allowed = await revoke(['Bash(make:*)'], managed);
    expect(allowed.code).toBe(1);
    expect(allowed.stderr).toContain('allow rule Bash(make:*) cannot be revoked');
    expect(allowed.stderr).toContain('managed policy, which only its administrator can change');
    expect(allowed.stdout).toBe('');
    const denied = await revoke(['Bash(curl:*)', '--behavior', 'deny'], managed);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('managed policy');
    expect(await readFile(managed, 'utf8')).toBe(policy);
  });

  it('still removes the same rule from a user file while the managed copy stays', async () => {
    const managed = join(folder, 'managed-settings.json');
    await writeFile(managed, JSON.stringify({ permissions: { allow: ['Bash(make:*)'] } }));
    const user = join(folder, '.toolplane', 'settings.json');
    await mkdir(join(folder, '.toolplane'), { recursive: true });
    await writeFile(user, JSON.stringify({ permissions: { allow: ['Bash(make:*)'] } }));
    const result = await revoke(['Bash(make:*)'], managed);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`Removed allow rule Bash(make:*) from ${user}`);
    expect(result.stderr).toContain('managed policy');
    expect(JSON.parse(await readFile(user, 'utf8'))).toEqual({ permissions: { allow: [] } });
    expect(JSON.parse(await readFile(managed, 'utf8'))).toEqual({ permissions: { allow: ['Bash(make:*)'] } });
  });
});
