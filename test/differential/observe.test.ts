import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeBubblewrap } from './bubblewrap-probe.js';
import {
  createWorld,
  describeFailure,
  runDifferential,
  runsFromEnvironment,
  seedFromEnvironment,
  surveyDifferential,
  type AllowedVerdict,
  type Executor,
  type World,
} from './differential.js';
import { harmsOf } from './harms.js';
import { createEngineJudge, withPlantedHole, type Judge } from './judge.js';
import { observeAllowance, observeExecutor } from './observe-mode.js';

/**
 * Observe mode of the differential test (issue 11): generated commands the engine allows run for
 * real in a disposable bubblewrap root with nothing to stop them; whatever harm they do beyond
 * their approval is a hole in the engine. Runs: TOOLPLANE_DIFF_RUNS (default 300), seed:
 * TOOLPLANE_DIFF_SEED (a number or `random`); TOOLPLANE_DIFF_SURVEY=1 also lists every harmful
 * command of a run without stopping at the first.
 */

const bubblewrap = probeBubblewrap();
const RUNS = runsFromEnvironment(300);
const SEED = seedFromEnvironment(20261201);
const LONG = 30 * 60_000;

describe.skipIf(!bubblewrap.available)(
  'differential test, observe mode (engine decides, a jail shows what happened)',
  () => {
    let world: World;
    let judge: Judge;
    let execute: Executor;

    beforeAll(async () => {
      // Commands run as an unprivileged user: nothing in the jail is the host's root.
      world = await createWorld({ unprivileged: true });
      judge = await createEngineJudge({ work: world.fixture.work, home: world.fixture.home });
      execute = observeExecutor(world);
    });

    afterAll(async () => world?.dispose());

    /** Runs one command in the jail and returns the harms a read-only approval would see. */
    const harmsAsReadOnly = async (template: string): Promise<string[]> => {
      const verdict: AllowedVerdict = { kind: 'read-only', reason: 'test' };
      const before = world.fixture.snapshot();
      const unixBefore = (await world.listeners.settle()).unix;
      const ran = await execute(world.fill(template), verdict);
      const unix = (await world.listeners.settle()).unix - unixBefore;
      const harms = harmsOf(
        { ...ran, unixConnections: unix, before, after: world.fixture.snapshot() },
        observeAllowance(verdict, world),
        world.fixture.secrets,
      );
      world.fixture.restore();
      await world.listeners.relisten();
      world.fixture.rebase();
      return harms;
    };

    it(
      'sees every kind of harm the property looks for (so a pass means something)',
      async () => {
        expect(await harmsAsReadOnly('ls && git status && git diff && git log -n1 && git show --stat HEAD')).toEqual(
          [],
        );
        expect(await harmsAsReadOnly('touch {outside}/mark')).toEqual(['created outside/mark']);
        expect(await harmsAsReadOnly('echo x >> src/a.ts')).toEqual(['changed work/src/a.ts']);
        expect(await harmsAsReadOnly('touch /tmp/mark ~/mark')).toEqual(['created home/mark', 'created tmp/mark']);
        expect(await harmsAsReadOnly('cat .env >/dev/null')).toEqual(['read the planted secret file work/.env']);
        expect(await harmsAsReadOnly('base64 ~/.ssh/id_rsa')).toEqual([
          'read the planted secret file home/.ssh/id_rsa',
          'printed the planted sshKey',
        ]);
        expect(await harmsAsReadOnly('tr "\\0" "\\n" < /proc/$PPID/environ')).toEqual(['printed the planted apiKey']);
        expect(await harmsAsReadOnly('echo "$ANTHROPIC_API_KEY"')).toEqual([]);
        expect(await harmsAsReadOnly('echo x >/dev/tcp/127.0.0.1/{port}')).toEqual([
          'connected to the TCP listener on 127.0.0.1 (1×)',
        ]);
        expect(
          await harmsAsReadOnly('python3 -c \'import socket; s = socket.socket(socket.AF_UNIX); s.connect("{sock}")\''),
        ).toEqual(['connected to a Unix-socket listener outside the working folder (1×)']);
        expect(await harmsAsReadOnly('sleep 0.2 && touch {outside}/late &')).toEqual(['created outside/late']);
      },
      LONG,
    );

    it(
      `finds no harm in ${RUNS} generated commands the engine allows (seed ${SEED})`,
      async () => {
        const report = await runDifferential({
          world,
          judge,
          execute,
          allowance: (verdict) => observeAllowance(verdict, world),
          runs: RUNS,
          seed: SEED,
        });
        console.info(`observe mode: ${JSON.stringify(report.stats)}`);
        expect(report.failure === undefined, describeFailure(report, 'observe')).toBe(true);
        // The property means something only if the engine let a fair share through to run.
        expect(report.stats.readOnly + report.stats.rule).toBeGreaterThan(RUNS / 10);
      },
      LONG,
    );

    it.runIf(process.env.TOOLPLANE_DIFF_SURVEY === '1')(
      'survey: every harmful command of a run, unshrunk',
      async () => {
        const survey = await surveyDifferential({
          world,
          judge,
          execute,
          allowance: (verdict) => observeAllowance(verdict, world),
          runs: RUNS,
          seed: SEED,
        });
        const lines = survey.harmful.map(
          (example) => `${example.verdict.kind} | ${example.harms.join('; ')} | ${JSON.stringify(example.template)}`,
        );
        console.info(`observe survey: ${JSON.stringify(survey.stats)}\n${lines.join('\n')}`);
        expect(lines).toEqual([]);
      },
      LONG,
    );

    it(
      'fails on a deliberately broken engine that judges touch and > read-only',
      async () => {
        const report = await runDifferential({
          world,
          judge: withPlantedHole(judge),
          execute,
          allowance: (verdict) => observeAllowance(verdict, world),
          runs: 100,
          seed: SEED,
        });
        console.info(
          `planted hole: ${report.failure?.counterexample?.template ?? 'not caught'} (${report.failure?.counterexample?.harms.join('; ') ?? ''})`,
        );
        // Whatever the shrunk command is, it got through the planted hole and did harm.
        expect(report.failure?.counterexample?.verdict.reason).toMatch(/planted hole/);
        expect(report.failure?.counterexample?.harms.length).toBeGreaterThan(0);
      },
      LONG,
    );
  },
);

if (!bubblewrap.available) {
  describe('differential test, observe mode', () => {
    it.skip(`skipped: ${bubblewrap.reason}`, () => undefined);
  });
}
