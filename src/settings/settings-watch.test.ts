import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings, type LoadSettingsOptions } from './load-settings.js';
import { recordTrustAnswer } from './record-trust-answer.js';
import { saveRule } from './save-rule.js';
import { confirmContent, readHoldTable } from './settings-holds.js';
import { settingsPaths } from './settings-paths.js';
import { createSettingsWatch } from './settings-watch.js';
import { readProjectTrust } from './trust-store.js';

let base: string;
let project: string;
let userDir: string;
let local: string;
let paths: ReturnType<typeof settingsPaths>;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'toolplane-held-'));
  project = join(base, 'project');
  userDir = join(base, 'config');
  await mkdir(join(project, '.toolplane'), { recursive: true });
  paths = settingsPaths({ cwd: project, env: { TOOLPLANE_CONFIG_DIR: userDir }, homeDir: base });
  local = paths.localSettings;
  await writeFile(local, JSON.stringify({ permissions: { allow: ['Read'], deny: ['Bash(curl:*)'] } }));
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const load = (extra: Partial<LoadSettingsOptions> = {}) =>
  loadSettings({
    cwd: project,
    env: { TOOLPLANE_CONFIG_DIR: userDir },
    homeDir: base,
    managedSettingsFile: join(base, 'none'),
    session: 'headless',
    trustProject: true,
    ...extra,
  });
const rules = async (extra: Partial<LoadSettingsOptions> = {}) =>
  (await load(extra)).rules.map((entry) => `${entry.behavior} ${entry.rule}`).sort();
const watch = () =>
  createSettingsWatch({
    files: [local, paths.userSettings, paths.trustStore, join(project, '.mcp.json')],
    storeFile: paths.heldSettings,
    sessionId: () => 'session-1',
  });
/** What a tool call would do: rewrite the file behind toolplane's back. */
const toolWrites = (file: string, value: unknown) => writeFile(file, JSON.stringify(value));

describe('settings a tool call wrote are held', () => {
  it('applies only the deny and ask rules of a file a tool call changed, and keeps the deny rules it dropped', async () => {
    const session = await watch();
    await toolWrites(local, {
      permissions: {
        allow: ['Read', 'Bash(curl:*)', 'Edit'],
        ask: ['Bash(git push:*)'],
        defaultMode: 'bypassPermissions',
      },
      env: { X: '1' },
    });
    expect(await session.scan()).toEqual([{ file: local, deleted: false }]);
    const loaded = await load();
    // The dropped deny rule still applies; the new ask rule applies; no allow rule, mode or env does.
    expect(loaded.rules.map((entry) => `${entry.behavior} ${entry.rule}`).sort()).toEqual([
      'ask Bash(git push:*)',
      'deny Bash(curl:*)',
    ]);
    expect(loaded).toMatchObject({
      defaultMode: 'default',
      heldFiles: [{ file: local, source: 'localSettings', record: { state: 'held', session: 'session-1' } }],
    });
    expect(loaded.env.size).toBe(0);
    expect(loaded.warnings.map((warning) => warning.message)).toContainEqual(
      expect.stringMatching(
        /^it was changed by a tool call in session session-1 \(.* UTC\) and is held until a person confirms it: its allow rules, defaultMode bypassPermissions, env are not applied/,
      ),
    );
    // Later sessions see it held too: the record is on disk, keyed by path and content.
    expect((await readHoldTable(paths.heldSettings)).files.size).toBe(1);
  });

  it('look-alike: a person editing the file with no session running is not held', async () => {
    await watch();
    await toolWrites(local, { permissions: { allow: ['Read', 'Edit'] } });
    // No scan ran: nothing is recorded, so the edit applies as the person wrote it.
    expect(await rules()).toEqual(['allow Edit', 'allow Read']);
  });

  it('a person confirming the file makes it apply in full', async () => {
    const session = await watch();
    await toolWrites(local, { permissions: { allow: ['Edit'] } });
    await session.scan();
    expect(await rules()).toEqual(['deny Bash(curl:*)']);
    await confirmContent({ storeFile: paths.heldSettings, file: local, text: await readFile(local, 'utf8') });
    expect(await rules()).toEqual(['allow Edit']);
  });

  it('holds a deleted file: the deny rules it had keep applying', async () => {
    const session = await watch();
    await rm(local);
    expect(await session.scan()).toEqual([{ file: local, deleted: true }]);
    expect(await rules()).toEqual(['deny Bash(curl:*)']);
  });

  it('an always-allow rule toolplane saves applies at once, and is not held', async () => {
    const session = await watch();
    const saved = await saveRule({
      destination: 'localSettings',
      rule: 'Bash(npm test:*)',
      behavior: 'allow',
      cwd: project,
      env: { TOOLPLANE_CONFIG_DIR: userDir },
      homeDir: base,
    });
    expect(await session.recordOwnWrite(saved)).toBe('confirmed');
    expect(await session.scan()).toEqual([]);
    expect(await rules()).toEqual(['allow Bash(npm test:*)', 'allow Read', 'deny Bash(curl:*)']);
  });

  it('a saved rule does not launder a change a tool call made just before (not yet scanned)', async () => {
    const session = await watch();
    await toolWrites(local, { permissions: { allow: ['Edit'] } });
    const saved = await saveRule({
      destination: 'localSettings',
      rule: 'Bash(npm test:*)',
      behavior: 'allow',
      cwd: project,
      env: { TOOLPLANE_CONFIG_DIR: userDir },
      homeDir: base,
    });
    expect(await session.recordOwnWrite(saved)).toBe('held');
    expect(await rules()).toEqual(['deny Bash(curl:*)']);
  });

  it('a trust store a tool call wrote trusts nothing, and answering about one folder forgets the rest', async () => {
    const elsewhere = join(base, 'elsewhere');
    await mkdir(elsewhere);
    const session = await watch();
    await mkdir(userDir, { recursive: true });
    await toolWrites(paths.trustStore, { projects: { [project]: { trusted: true }, [elsewhere]: { trusted: true } } });
    await session.scan();
    expect((await load({ trustProject: false })).projectTrust).toBe('unknown');
    expect(
      await recordTrustAnswer({
        storeFile: paths.trustStore,
        holdsFile: paths.heldSettings,
        projectDir: project,
        trust: 'trusted',
      }),
    ).toMatchObject({ forgotOtherTrust: true });
    expect((await load({ trustProject: false })).projectTrust).toBe('trusted');
    expect((await readProjectTrust({ storeFile: paths.trustStore, projectDir: elsewhere })).trust).toBe('unknown');
  });

  it('a damaged record holds every file until a person confirms it', async () => {
    await mkdir(userDir, { recursive: true });
    await writeFile(paths.heldSettings, '{"files": [');
    const loaded = await load();
    expect(loaded.rules.map((entry) => `${entry.behavior} ${entry.rule}`)).toEqual(['deny Bash(curl:*)']);
    expect(loaded.warnings.map((warning) => warning.message)).toContain(
      'the record of settings changes is damaged; every settings file counts as changed by a tool call until a person confirms it',
    );
  });
});
