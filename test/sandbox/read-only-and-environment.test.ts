import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import type { SandboxProfile } from '../../src/contract/sandbox.js';
import { allOutput, attackSuite, sharingFixtures, type AttackCase } from './attack-suite.js';
import { projectState, readIfThere } from './fixture.js';

/**
 * The read-only profile writes nowhere but its private /tmp (which is the session's tmp folder, not
 * the host's /tmp), and its commands see no secret-looking environment variable; the workspace
 * profile keeps ordinary credentials (a GITHUB_TOKEN is for pushing) but never the model's.
 */

// A file in the host's /tmp that a sandboxed command must not see (its /tmp is private).
const hostTmpMarker = `/tmp/toolplane-attack-host-tmp-${process.pid}`;
writeFileSync(hostTmpMarker, 'HOST-TMP-CONTENT\n');
afterAll(() => rmSync(hostTmpMarker, { force: true }));

const WRITE_ATTEMPTS = (outside: string): string =>
  [
    'touch new-file',
    'echo x >> README.md',
    'rm -f README.md',
    'mv README.md moved.md',
    'mkdir new-folder',
    'ln -s README.md link',
    'chmod 600 README.md',
    'touch ~/planted',
    'echo x >> ~/.gitconfig',
    'mkdir -p ~/.cache/planted',
    'touch /var/tmp/toolplane-attack-planted',
    `touch ${outside}/planted`,
    "python3 -c \"open('py-file', 'w').write('x')\"",
    "node -e \"require('fs').writeFileSync('node-file', 'x')\"",
    'git stash',
    'git commit --allow-empty -qm planted',
    'git checkout -q -b planted',
    'echo PLANTED-$((40+2))',
  ].join('; ');

/** Environment variables given to the command (on top of PATH, HOME, LANG). */
const ENV = {
  GITHUB_TOKEN: 'ghp_GITHUBTOKENSECRET0123456789abcdef01',
  GH_PAT: 'ghp_GHPATSECRET0123456789abcdefabcdef0',
  AWS_SECRET_ACCESS_KEY: 'AWS-ENV-SECRET-77aa',
  DATABASE_URL: 'postgres://app:DB-PASSWORD-SECRET@db.example.invalid/app',
  SLACK_WEBHOOK: 'https://hooks.slack.com/services/T000/B000/SLACKSECRET',
  SLACK_BOT: 'xoxb-SLACK-BOT-SECRET-123456',
  ANTHROPIC_API_KEY: 'sk-ant-api03-MODEL-KEY-SECRET',
  OPENAI_API_KEY: 'sk-proj-OPENAI-KEY-SECRET',
  LLM_KEY_FOR_SCRIPTS: 'sk-ant-api03-MODEL-KEY-COPY-SECRET',
  EDITOR: 'vim',
  KEYBOARD_LAYOUT: 'us',
  TOKENIZERS_PARALLELISM: 'false',
  DATABASE_HOST: 'db.example.invalid',
};

const printEnv = `env | sort`;

function environmentCases(profile: SandboxProfile, via: 'sandbox' | 'bash'): AttackCase {
  return {
    name: `${profile} (${via === 'bash' ? 'Bash tool' : 'prepare + spawn'}): ${
      profile === 'read-only'
        ? 'secret-looking variables and model credentials are dropped'
        : 'model credentials are dropped, ordinary credentials kept'
    }; harmless look-alikes kept`,
    steps: () => [{ profile, via, command: printEnv, env: ENV }],
    check: (result) => {
      const output = allOutput(result);
      for (const name of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'])
        expect(output).not.toContain(ENV[name as keyof typeof ENV]);
      expect(output).not.toContain('MODEL-KEY-COPY-SECRET');
      for (const kept of [
        'EDITOR=vim',
        'KEYBOARD_LAYOUT=us',
        'TOKENIZERS_PARALLELISM=false',
        'DATABASE_HOST=db.example.invalid',
      ])
        expect(output).toContain(kept);
      expect(output).toContain(`TOOLPLANE_SANDBOX=${profile}`);
      if (profile === 'read-only') {
        for (const secret of [
          'GITHUBTOKENSECRET',
          'GHPATSECRET',
          'AWS-ENV-SECRET',
          'DB-PASSWORD-SECRET',
          'SLACKSECRET',
          'SLACK-BOT-SECRET',
        ]) {
          expect(output).not.toContain(secret);
        }
      } else {
        expect(output).toContain(`GITHUB_TOKEN=${ENV.GITHUB_TOKEN}`);
        expect(output).toContain(`DATABASE_URL=${ENV.DATABASE_URL}`);
      }
    },
  };
}

const cases: AttackCase[] = [
  {
    name: 'read-only: nothing is writable in the working folder, home (not even its caches), /var/tmp or elsewhere',
    steps: (fixture) => [{ profile: 'read-only', command: WRITE_ATTEMPTS(fixture.outside) }],
    check: (result) => {
      const { fixture } = result;
      expect(projectState(fixture.project)).toBe(result.before);
      expect(readIfThere(path.join(fixture.project, 'README.md'))).toBe('# fixture project\n');
      expect(readdirSync(fixture.outside)).toEqual([]);
      expect(existsSync(path.join(fixture.home, 'planted'))).toBe(false);
      expect(existsSync(path.join(fixture.home, '.cache', 'planted'))).toBe(false);
      expect(existsSync('/var/tmp/toolplane-attack-planted')).toBe(false);
      expect(readIfThere(path.join(fixture.home, '.gitconfig'))).toBe('[user]\n\tname = Fixture Home\n');
    },
  },
  {
    name: "read-only (Bash tool): a blocked write is reported to the model as the sandbox's doing",
    steps: () => [{ profile: 'read-only', via: 'bash', command: 'touch new-file' }],
    check: (result) => {
      expect(result.last.text ?? '').toMatch(/read-only file system/i);
      expect(result.last.text ?? '').toMatch(/sandbox/);
    },
  },
  {
    name: "read-only: /tmp is writable and private: the host's /tmp is not visible, and what is written lands in the session's tmp folder",
    steps: () => [
      {
        profile: 'read-only',
        command: `cat ${hostTmpMarker}; ls /tmp; echo from-sandbox > /tmp/note && cat /tmp/note && echo via-tmpdir > "$TMPDIR/other" && cat "$TMPDIR/other"`,
      },
    ],
    check: (result) => {
      expect(allOutput(result)).not.toContain('HOST-TMP-CONTENT');
      expect(result.last.stdout).toContain('from-sandbox\nvia-tmpdir\n');
      expect(readIfThere(path.join(result.fixture.tmpDir, 'note'))).toBe('from-sandbox\n');
      expect(readIfThere(path.join(result.fixture.tmpDir, 'other'))).toBe('via-tmpdir\n');
    },
  },
  environmentCases('read-only', 'sandbox'),
  environmentCases('read-only', 'bash'),
  environmentCases('workspace', 'sandbox'),
  environmentCases('workspace', 'bash'),
];

attackSuite('sandbox read-only and environment', sharingFixtures(cases));
