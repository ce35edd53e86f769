import fc from 'fast-check';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RuleSource } from '../contract/permission.js';
import { loadSettings } from './load-settings.js';
import { writeProjectTrust } from './trust-store.js';

const RULES = [
  'Bash',
  'Bash(rm *)',
  'Read(/secrets/**)',
  '*',
  'mcp__*',
  'toString',
  '__proto__',
  'Edit(~/x)',
  'WebFetch(domain:a.com)',
  'Unknown(x)',
];
const lists = fc.record({
  allow: fc.array(fc.constantFrom(...RULES), { maxLength: 3 }),
  deny: fc.array(fc.constantFrom(...RULES), { maxLength: 3 }),
  ask: fc.array(fc.constantFrom(...RULES), { maxLength: 3 }),
});
const FILE_SOURCES = ['managed', 'cli', 'localSettings', 'projectSettings', 'userSettings'] as const;

describe('loadSettings under arbitrary rule sets and trust states', () => {
  it('never loses a deny or ask rule, and applies allow rules only where trust allows', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(lists, lists, lists, lists, lists),
        fc.constantFrom('flag', 'headless', 'unknown', 'trusted', 'untrusted'),
        async (perSource, trust) => {
          const base = await mkdtemp(join(tmpdir(), 'toolplane-settings-prop-'));
          try {
            const project = join(base, 'project');
            const userDir = join(base, 'config');
            const files: Record<(typeof FILE_SOURCES)[number], string> = {
              managed: join(base, 'managed.json'),
              cli: join(base, 'cli', 'settings.json'),
              localSettings: join(project, '.toolplane', 'settings.local.json'),
              projectSettings: join(project, '.toolplane', 'settings.json'),
              userSettings: join(userDir, 'settings.json'),
            };
            for (const [index, source] of FILE_SOURCES.entries()) {
              await mkdir(join(files[source], '..'), { recursive: true });
              await writeFile(files[source], JSON.stringify({ permissions: perSource[index] }));
            }
            if (trust === 'trusted' || trust === 'untrusted') {
              await writeProjectTrust({
                storeFile: join(userDir, 'trusted-projects.json'),
                projectDir: project,
                trust,
              });
            }
            const loaded = await loadSettings({
              cwd: project,
              env: { TOOLPLANE_CONFIG_DIR: userDir },
              homeDir: base,
              managedSettingsFile: files.managed,
              cli: { settings: files.cli },
              session: trust === 'headless' ? 'headless' : 'interactive',
              trustProject: trust === 'flag',
            });
            const got = (behavior: string) =>
              loaded.rules
                .filter((entry) => entry.behavior === behavior)
                .map((entry) => `${entry.source}:${entry.rule}`)
                .sort();
            const want = (behavior: 'allow' | 'deny' | 'ask', keep: (source: RuleSource, rule: string) => boolean) =>
              FILE_SOURCES.flatMap((source, index) =>
                perSource[index]![behavior].filter((rule) => keep(source, rule)).map((rule) => `${source}:${rule}`),
              ).sort();
            expect(got('deny')).toEqual(want('deny', () => true));
            expect(got('ask')).toEqual(want('ask', () => true));
            // A headless run is no exception: the folder is trusted only by the flag or the store.
            const projectTrusted = trust === 'flag' || trust === 'trusted';
            expect(got('allow')).toEqual(
              want(
                'allow',
                (source, rule) =>
                  (projectTrusted || (source !== 'localSettings' && source !== 'projectSettings')) &&
                  rule !== '*' &&
                  rule !== 'mcp__*',
              ),
            );
          } finally {
            await rm(base, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
