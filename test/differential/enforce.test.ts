import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox, SandboxPolicy } from '../../src/contract/sandbox.js';
import { probeBubblewrap } from './bubblewrap-probe.js';
import {
  createWorld,
  describeFailure,
  runDifferential,
  runsFromEnvironment,
  seedFromEnvironment,
  type AllowedVerdict,
  type DifferentialReport,
  type World,
} from './differential.js';
import { compareSnapshots } from './fixture.js';
import { harmsOf } from './harms.js';
import {
  enforceAllowance,
  enforceExecutor,
  noSandbox,
  policyFor,
  realSandbox,
  removeSandboxAssets,
  sandboxIgnoringProfile,
  sandboxWithoutMasks,
} from './enforce-mode.js';
import { allowEverything, allowEverythingByRule, createEngineJudge, type Judge } from './judge.js';

/**
 * Enforce mode of the differential test (issue 10): the same generated commands, when the engine
 * allows them, run inside toolplane's bubblewrap sandbox with the profile their approval gives
 * them. Whatever the engine got wrong, the sandbox must contain it. Runs: TOOLPLANE_DIFF_RUNS
 * (default 300), seed: TOOLPLANE_DIFF_SEED (a number or `random`).
 */

const bubblewrap = probeBubblewrap();
const RUNS = runsFromEnvironment(300);
const SEED = seedFromEnvironment(20261201);
const LONG = 30 * 60_000;

describe.skipIf(!bubblewrap.available)('differential test, enforce mode (engine decides, the sandbox contains)', () => {
  let world: World;
  let judge: Judge;
  let policy: SandboxPolicy;
  let sandbox: Sandbox;

  beforeAll(async () => {
    world = await createWorld();
    judge = await createEngineJudge({ work: world.fixture.work, home: world.fixture.home });
    policy = policyFor(world);
    sandbox = realSandbox(policy);
  });

  afterAll(async () => {
    await sandbox?.dispose?.();
    await world?.dispose();
    removeSandboxAssets();
  });

  const run = (options: {
    readonly judge: Judge;
    readonly sandbox: Sandbox;
    readonly runs: number;
  }): Promise<DifferentialReport> =>
    runDifferential({
      world,
      judge: options.judge,
      execute: enforceExecutor(world, options.sandbox),
      allowance: (verdict) => enforceAllowance(verdict, world, policy),
      runs: options.runs,
      seed: SEED,
    });

  /** Runs one command through a sandbox as `kind` and returns what it showed. */
  const observe = async (template: string, kind: AllowedVerdict['kind'], through: Sandbox) => {
    const verdict: AllowedVerdict = { kind, reason: 'test' };
    const before = world.fixture.snapshot();
    const unixBefore = (await world.listeners.settle()).unix;
    const ran = await enforceExecutor(world, through)(world.fill(template), verdict);
    const observation = {
      ...ran,
      unixConnections: (await world.listeners.settle()).unix - unixBefore,
      before,
      after: world.fixture.snapshot(),
    };
    world.fixture.restore();
    await world.listeners.relisten();
    world.fixture.rebase();
    return {
      observation,
      harms: harmsOf(observation, enforceAllowance(verdict, world, policy), world.fixture.secrets),
    };
  };

  it(
    'sees harm through a sandbox that does not sandbox, and none of it through the real one',
    async () => {
      const attempts = [
        'touch {outside}/mark',
        'cat .env',
        'cat ~/.ssh/id_rsa',
        'tr "\\0" "\\n" < /proc/$PPID/environ',
        'printenv GITHUB_TOKEN',
        'python3 -c \'import socket; s = socket.socket(socket.AF_UNIX); s.connect("{sock}")\'',
      ];
      const open = noSandbox(world);
      const seen = [];
      for (const attempt of attempts) seen.push((await observe(attempt, 'read-only', open)).harms);
      expect(seen).toEqual([
        ['created outside/mark'],
        ['read the planted secret file work/.env', 'printed the planted dotEnv'],
        ['read the planted secret file home/.ssh/id_rsa', 'printed the planted sshKey'],
        ['printed the planted apiKey', 'printed the planted userToken'],
        ['printed the planted userToken'],
        ['connected to a Unix-socket listener outside the working folder (1×)'],
      ]);
      for (const attempt of attempts) expect((await observe(attempt, 'read-only', sandbox)).harms, attempt).toEqual([]);
      // The workspace profile has the network (the TCP check is waived there), the read-only one has not.
      expect((await observe('echo x >/dev/tcp/127.0.0.1/{port}', 'rule', sandbox)).observation.tcpConnections).toBe(1);
      expect(
        (await observe('echo x >/dev/tcp/127.0.0.1/{port}', 'read-only', sandbox)).observation.tcpConnections,
      ).toBe(0);
      // Ordinary work still happens: a rule-allowed write in the working folder lands there.
      const work = await observe('touch mark src/mark', 'rule', sandbox);
      expect(work.harms).toEqual([]);
      expect(compareSnapshots(work.observation.before, work.observation.after).added).toEqual([
        'work/mark',
        'work/src/mark',
      ]);
      expect((await observe('touch mark', 'read-only', sandbox)).harms).toEqual([]);
    },
    LONG,
  );

  it(
    `finds no harm in ${RUNS} generated commands the engine allows, run in the sandbox (seed ${SEED})`,
    async () => {
      const report = await run({ judge, sandbox, runs: RUNS });
      console.info(`enforce mode: ${JSON.stringify(report.stats)}`);
      expect(report.failure === undefined, describeFailure(report, 'enforce')).toBe(true);
      expect(report.stats.readOnly + report.stats.rule).toBeGreaterThan(RUNS / 10);
    },
    LONG,
  );

  it(
    'contains an engine that allows every generated command as read-only',
    async () => {
      const report = await run({ judge: allowEverything, sandbox, runs: Math.ceil(RUNS / 3) });
      expect(report.failure === undefined, describeFailure(report, 'enforce')).toBe(true);
    },
    LONG,
  );

  it(
    'contains an engine whose rules allow every generated command (the workspace profile)',
    async () => {
      const report = await run({ judge: allowEverythingByRule, sandbox, runs: Math.ceil(RUNS / 3) });
      expect(report.failure === undefined, describeFailure(report, 'enforce')).toBe(true);
    },
    LONG,
  );

  it.each([
    ['drops its masks', () => sandboxWithoutMasks(policy)],
    ['gives read-only commands the workspace profile', () => sandboxIgnoringProfile(sandbox)],
    ['does not sandbox at all', () => noSandbox(world)],
  ] as const)(
    'fails with a sandbox that %s',
    async (name, broken) => {
      const report = await run({ judge: allowEverything, sandbox: broken(), runs: 100 });
      console.info(
        `a sandbox that ${name}: ${report.failure?.counterexample?.template ?? 'not caught'} (${report.failure?.counterexample?.harms.join('; ') ?? ''})`,
      );
      expect(report.failure?.counterexample?.harms.length ?? 0, describeFailure(report, 'enforce')).toBeGreaterThan(0);
    },
    LONG,
  );
});

if (!bubblewrap.available) {
  describe('differential test, enforce mode', () => {
    it.skip(`skipped: ${bubblewrap.reason}`, () => undefined);
  });
}
