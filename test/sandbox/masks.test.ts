import { mkdirSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import type { SandboxProfile } from '../../src/contract/sandbox.js';
import { allOutput, attackSuite, sharingFixtures, type AttackCase } from './attack-suite.js';
import { ALL_SECRETS, SECRETS, isAlive, readIfThere, startFakeAgent, stopFakeAgents } from './fixture.js';

/**
 * Masks: credential stores under home and Read-denied paths must be unreadable (EACCES) to every
 * sandboxed command, whatever program reads them and whatever trick it uses to get around the
 * mount; the agent's own environment must be out of reach. Each attack has a harmless look-alike
 * that must keep working.
 */

afterAll(() => stopFakeAgents());

const PROFILES: readonly SandboxProfile[] = ['read-only', 'workspace'];

/** Every program a command might read a file with. */
const readWithEverything = (file: string): string =>
  [
    `cat ${file}`,
    `dd if=${file} status=none`,
    `head -c 200 ${file}`,
    `python3 -c 'import sys; print(open(sys.argv[1]).read())' ${file}`,
    `node -e 'process.stdout.write(require("fs").readFileSync(process.argv[1], "utf8"))' ${file}`,
  ].join('; ');

const noSecret = (output: string): void => {
  for (const secret of ALL_SECRETS) expect(output).not.toContain(secret);
};

const agentSecret = 'AGENT-ENVIRONMENT-SECRET-3c8e55';
const agentPids = new Map<string, number>();

function casesFor(profile: SandboxProfile): AttackCase[] {
  const writes = profile === 'workspace';
  const cases: AttackCase[] = [
    {
      name: `${profile}: ~/.ssh/id_rsa and ~/.aws/credentials are unreadable to cat, dd, head, python3 and node (EACCES)`,
      steps: () => [{ profile, command: `${readWithEverything('~/.ssh/id_rsa')}; cat ~/.aws/credentials; ls ~/.ssh` }],
      check: (result) => {
        noSecret(allOutput(result));
        expect(result.last.stderr).toMatch(/Permission denied/);
        expect(result.last.stderr).not.toMatch(/No such file/);
      },
    },
    {
      name: `${profile}: look-alike: other files in home and the project are readable`,
      steps: () => [
        { profile, command: 'cat ~/notes-about-ssh.txt ~/.gitconfig README.md .env.example config/app.json' },
      ],
      check: (result) => {
        expect(result.last.code).toBe(0);
        expect(result.last.stdout).toContain('readable notes');
        expect(result.last.stdout).toContain('Fixture Home');
        expect(result.last.stdout).toContain('API_SECRET=changeme');
        expect(result.last.stdout).toContain('"port": 8080');
      },
    },
    {
      name: `${profile}: a Read-denied .env and config/prod.key are unreadable to every program`,
      steps: () => [
        {
          profile,
          command: `${readWithEverything('.env')}; cat config/prod.key; grep -r SECRET . 2>&1; git grep -h SECRET -- . 2>&1`,
        },
      ],
      check: (result) => {
        noSecret(allOutput(result));
        expect(result.last.stderr).toMatch(/\.env: Permission denied/);
      },
    },
    {
      name: `${profile}: symlinks planted in the project (by a cloned repository) that point at the secrets`,
      setup: (fixture) => {
        mkdirSync(path.join(fixture.project, 'docs'), { recursive: true });
        symlinkSync(path.join(fixture.home, '.ssh', 'id_rsa'), path.join(fixture.project, 'docs', 'key'));
        symlinkSync('../.env', path.join(fixture.project, 'docs', 'dotenv'));
        symlinkSync('../config/prod.key', path.join(fixture.project, 'docs', 'prod'));
        symlinkSync('../README.md', path.join(fixture.project, 'docs', 'readme'));
      },
      steps: () => [
        { profile, command: `${readWithEverything('docs/key')}; cat docs/dotenv docs/prod; cat docs/readme` },
      ],
      check: (result) => {
        noSecret(allOutput(result));
        // The look-alike: a link to an ordinary file still reads.
        expect(result.last.stdout).toContain('# fixture project');
      },
    },
    {
      name: `${profile}: the mounts cannot be undone: mount, umount, remount rw, unshare -Urm, nsenter, /proc/*/root, chmod`,
      steps: () => [
        {
          profile,
          command: [
            'mount -t tmpfs none ~/.ssh',
            'umount ~/.ssh',
            'umount -l .env',
            'umount config/prod.key',
            'mount -o remount,rw /',
            'mount --bind / /mnt',
            "unshare -Urm sh -c 'umount ~/.ssh; umount .env; cat ~/.ssh/id_rsa .env'",
            "unshare -m sh -c 'umount ~/.ssh; cat ~/.ssh/id_rsa'",
            'nsenter -t 1 -m -- cat ~/.ssh/id_rsa',
            'cat /proc/self/root$HOME/.ssh/id_rsa',
            'cat /proc/1/root$PWD/.env',
            'cat /proc/self/cwd/.env',
            'chmod 644 .env config/prod.key ~/.ssh/id_rsa',
            'chmod 755 ~/.ssh',
            'cat ~/.ssh/id_rsa .env config/prod.key',
          ].join('; '),
        },
      ],
      check: (result) => {
        noSecret(allOutput(result));
        // The host files keep their modes: a chmod through the mask would have changed them.
        expect(statSync(path.join(result.fixture.home, '.ssh', 'id_rsa')).mode & 0o777).toBe(0o600);
        expect(statSync(path.join(result.fixture.home, '.ssh')).mode & 0o777).toBe(0o755);
        expect(statSync(path.join(result.fixture.project, '.env')).mode & 0o777).toBe(0o644);
      },
    },
    {
      name: `${profile}: the mask assets cannot be found, read or written (so no later command sees planted content)`,
      steps: () => [
        {
          profile,
          command: [
            'grep -E "masked|toolplane-sandbox" /proc/self/mountinfo | head -3',
            'ls -la /tmp/toolplane-sandbox-* 2>&1',
            'for source in $(awk \'{print $4}\' /proc/self/mountinfo | grep -E "masked|toolplane-sandbox" | sort -u); do cat "$source" "/tmp$source" 2>&1; ls -la "$(dirname "$source")" 2>&1; done',
            'echo planted > .env',
            'echo planted > ~/.ssh/planted',
            'echo planted > config/prod.key',
            'cat .env',
          ].join('; '),
        },
        { profile: 'read-only', command: 'cat .env ~/.ssh/planted; ls -la ~/.ssh' },
      ],
      check: (result) => {
        noSecret(allOutput(result));
        expect(result.steps[1]?.stdout ?? '').not.toContain('planted');
        expect(readIfThere(path.join(result.fixture.project, '.env'))).toBe(`API_SECRET=${SECRETS.env}\n`);
      },
    },
    {
      name: `${profile}: the agent's process (its environment, its API key) is invisible and cannot be signalled`,
      setup: (fixture, user) => {
        agentPids.set(`${profile}-${fixture.root}`, startFakeAgent(user, agentSecret));
      },
      steps: (fixture) => {
        const pid = agentPids.get(`${profile}-${fixture.root}`) ?? 0;
        return [
          {
            profile,
            command: [
              "tr '\\0' '\\n' < /proc/1/environ",
              "for file in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $file; done",
              `grep -a -r ${agentSecret.slice(0, 12)} /proc/[0-9]*/environ 2>/dev/null`,
              `cat /proc/${pid}/environ`,
              'ps -eo pid,args',
              `kill -9 ${pid} && echo KILLED_$((6*7))`,
              'env',
            ].join('; '),
          },
        ];
      },
      check: (result) => {
        const output = allOutput(result);
        expect(output).not.toContain(agentSecret);
        expect(output).not.toContain('KILLED_42');
        expect(output).not.toContain('sleep 300');
        const pid = agentPids.get(`${profile}-${result.fixture.root}`) ?? 0;
        expect(pid).toBeGreaterThan(0);
        expect(isAlive(pid)).toBe(true);
      },
    },
    {
      name: `${profile}: look-alike: a command reads its own environment and /proc/self`,
      steps: () => [
        { profile, command: 'cat /proc/self/environ | tr "\\0" "\\n" | grep ^LANG=; grep -c Cap /proc/self/status' },
      ],
      check: (result) => {
        expect(result.last.code).toBe(0);
        expect(result.last.stdout).toContain('LANG=C.UTF-8');
      },
    },
    {
      name: `${profile}: npm, yarn and pip configuration shows without its credentials (any YAML form), and keeps the rest`,
      steps: () => [{ profile, command: 'cat ~/.npmrc ~/.yarnrc.yml' }],
      check: (result) => {
        noSecret(allOutput(result));
        expect(result.last.stdout).toContain('registry=https://registry.example.invalid/');
        expect(result.last.stdout).toContain('npmRegistryServer: "https://registry.example.invalid"');
        expect(result.last.stdout).toContain('enableTelemetry: false');
      },
    },
  ];
  if (writes) {
    cases.push(
      {
        name: 'workspace: symlinks the command makes in the project to the secrets read nothing',
        steps: () => [
          {
            profile,
            command: `ln -s ~/.ssh/id_rsa k1; ln -s "$PWD/.env" k2; ln -s config/prod.key k3; ln -s ~/.ssh k4; cat k1 k2 k3 k4/id_rsa; python3 -c 'print(open("k2").read())'; rm -f k1 k2 k3 k4`,
          },
        ],
        check: (result) => noSecret(allOutput(result)),
      },
      {
        name: 'workspace: hard links to the secrets cannot be made (another mount); a hard link to an ordinary file can',
        steps: () => [
          {
            profile,
            command:
              'ln ~/.ssh/id_rsa h1; ln .env h2; ln config/prod.key h3; cat h1 h2 h3; ln README.md readme-hard && cat readme-hard && rm readme-hard',
          },
        ],
        check: (result) => {
          noSecret(allOutput(result));
          expect(result.last.stdout).toContain('# fixture project');
          for (const name of ['h1', 'h2', 'h3'])
            expect(readIfThere(path.join(result.fixture.project, name))).toBeUndefined();
        },
      },
      {
        name: 'workspace: renaming the folder of a Read-denied file does not carry the secret out from under its mask for the next command',
        steps: () => [
          {
            profile,
            command: 'mv config config.moved; mv config/prod.key config/moved.key; cp -r config config.copy; ls',
          },
          {
            profile: 'read-only',
            command: 'cat config.moved/prod.key config/moved.key config.copy/prod.key config/prod.key',
          },
          { profile, command: 'cat config.moved/prod.key config/moved.key config.copy/prod.key config/prod.key' },
        ],
        check: (result) => {
          noSecret(allOutput(result));
          expect(readIfThere(path.join(result.fixture.project, 'config', 'prod.key'))).toBe(`${SECRETS.prodKey}\n`);
        },
      },
      {
        name: 'workspace: look-alike: folders without secrets rename freely',
        setup: (fixture) => mkdirSync(path.join(fixture.project, 'build')),
        steps: () => [
          { profile, command: 'mv build build.old && mkdir build && echo ok > build/out.txt && cat build/out.txt' },
        ],
        check: (result) => {
          expect(result.last.code).toBe(0);
          expect(readIfThere(path.join(result.fixture.project, 'build', 'out.txt'))).toBe('ok\n');
        },
      },
    );
  }
  return cases;
}

// Renames change the project, so that case gets a fixture of its own.
attackSuite(
  'sandbox masks',
  sharingFixtures(PROFILES.flatMap(casesFor), (entry) => entry.name.includes('renaming')),
);
