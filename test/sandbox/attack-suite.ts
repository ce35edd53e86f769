import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  USERS,
  SKIP_REASON,
  attacksCanRun,
  chownTree,
  createFixture,
  createSuiteRoot,
  NOBODY,
  projectState,
  removeSuiteRoot,
  type AttackFixture,
} from './fixture.js';
import { runJobsAsNobody, runJobsInChild } from './run-as-nobody.js';
import { runJobs, type SandboxJob, type SandboxStep, type StepOutcome } from './sandbox-runner.js';

/** What a case's check gets: each step's outcome, the fixture, and the project as it was before. */
export type CaseResult = {
  readonly steps: readonly StepOutcome[];
  /** The last step's outcome (most cases have one). */
  readonly last: StepOutcome;
  readonly fixture: AttackFixture;
  readonly user: 'self' | 'nobody';
  /** {@link projectState} before the first step. */
  readonly before: string;
};

/** One attack, or one harmless look-alike that must keep working. */
export type AttackCase = {
  readonly name: string;
  /** Host-side preparation, run as the test process before the fixture is handed to the user. */
  readonly setup?: (fixture: AttackFixture, user: 'self' | 'nobody') => void;
  readonly steps: (fixture: AttackFixture) => readonly SandboxStep[];
  readonly check: (result: CaseResult) => void | Promise<void>;
  /** A hole known to be open: the check must fail (vitest `it.fails`), see the report in the test file. */
  readonly knownHole?: boolean;
  /**
   * `shared`: runs on one fixture shared with the suite's other shared cases (for cases that change
   * nothing when the sandbox holds, and need no setup), which saves copying a fixture per case.
   */
  readonly fixture?: 'own' | 'shared';
  /** Only for these users (default: every user the suite runs as). */
  readonly users?: readonly ('self' | 'nobody')[];
};

/** Options for {@link attackSuite}. */
export type AttackSuiteOptions = {
  /** A program to run the runner under, in its own process (e.g. one that sets up a keyring), given the suite's folder. */
  readonly prefix?: (suiteRoot: string) => readonly string[];
};

/**
 * Runs every case against real bubblewrap as each user ({@link USERS}: ourselves, and `nobody`
 * through setpriv when we are root), one fresh fixture per case, then checks each case in its own
 * test. Skips with a message where bubblewrap cannot run.
 */
export function attackSuite(title: string, cases: readonly AttackCase[], options: AttackSuiteOptions = {}): void {
  describe.skipIf(!attacksCanRun)(`${title}${attacksCanRun ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
    let suiteRoot = '';
    beforeAll(() => {
      suiteRoot = createSuiteRoot(
        title
          .replace(/[^a-z0-9]+/gi, '-')
          .toLowerCase()
          .slice(0, 30),
      );
    });
    afterAll(() => {
      if (suiteRoot) removeSuiteRoot(suiteRoot);
    });

    const runs = new Map<'self' | 'nobody', Promise<Map<string, CaseResult>>>();
    const casesOf = (user: 'self' | 'nobody') =>
      cases.filter((entry) => entry.users === undefined || entry.users.includes(user));
    beforeAll(() => {
      // Both users' runs start at once (one in this process, one in the unprivileged child).
      for (const user of USERS) {
        const run = runCases(suiteRoot, user, casesOf(user), options);
        run.catch(() => undefined);
        runs.set(user, run);
      }
    });

    for (const user of USERS) {
      describe(
        user === 'nobody'
          ? `as an unprivileged user (uid ${NOBODY}, setpriv)`
          : `as ourselves (uid ${process.getuid?.() ?? '?'})`,
        () => {
          const mine = casesOf(user);
          let results = new Map<string, CaseResult>();
          beforeAll(async () => {
            results = (await runs.get(user)) ?? results;
          }, 120_000);

          for (const entry of mine) {
            const test = entry.knownHole ? it.fails : it;
            test(entry.knownHole ? `KNOWN HOLE: ${entry.name}` : entry.name, async () => {
              const result = results.get(entry.name);
              if (result === undefined) throw new Error('the case did not run');
              await entry.check(result);
            });
          }
        },
      );
    }
  });
}

async function runCases(
  suiteRoot: string,
  user: 'self' | 'nobody',
  cases: readonly AttackCase[],
  options: AttackSuiteOptions,
): Promise<Map<string, CaseResult>> {
  let shared: { readonly fixture: AttackFixture; readonly before: string } | undefined;
  const fixtureFor = (
    entry: AttackCase,
    index: number,
  ): { readonly fixture: AttackFixture; readonly before: string } => {
    if (entry.fixture === 'shared' && entry.setup !== undefined)
      throw new Error(`${entry.name}: a shared case cannot have a setup`);
    if (entry.fixture === 'shared' && shared !== undefined) return shared;
    const fixture = createFixture(suiteRoot, entry.fixture === 'shared' ? `${user}-shared` : `${user}-${index}`);
    entry.setup?.(fixture, user);
    if (user === 'nobody') chownTree(fixture.root, NOBODY);
    const made = { fixture, before: projectState(fixture.project) };
    if (entry.fixture === 'shared') shared = made;
    return made;
  };
  const prepared = cases.map((entry, index) => {
    const { fixture, before } = fixtureFor(entry, index);
    const job: SandboxJob = {
      id: entry.name,
      cwd: fixture.project,
      home: fixture.home,
      tmpDir: fixture.tmpDir,
      rules: fixture.rules,
      protectedFiles: fixture.protectedFiles,
      steps: entry.steps(fixture),
    };
    return { entry, fixture, before, job };
  });
  const jobs = prepared.map((item) => item.job);
  const outcomes =
    user === 'nobody'
      ? await runJobsAsNobody(suiteRoot, jobs, options.prefix ? { prefix: options.prefix(suiteRoot) } : {})
      : options.prefix
        ? await runJobsInChild(suiteRoot, jobs, options.prefix(suiteRoot))
        : await runJobs(jobs);
  const results = new Map<string, CaseResult>();
  prepared.forEach((item, index) => {
    const steps = outcomes[index]?.steps ?? [];
    const last = steps[steps.length - 1] ?? { code: null, stdout: '', stderr: '', error: 'no outcome' };
    results.set(item.entry.name, { steps, last, fixture: item.fixture, user, before: item.before });
  });
  return results;
}

/** The cases, each on the suite's shared fixture unless it has a setup of its own or `own` says so. */
export function sharingFixtures(
  cases: readonly AttackCase[],
  own: (entry: AttackCase) => boolean = () => false,
): AttackCase[] {
  return cases.map((entry) =>
    entry.setup !== undefined || entry.fixture === 'own' || own(entry) ? entry : { ...entry, fixture: 'shared' },
  );
}

/** Everything a step printed, for "the secret appears nowhere" checks. */
export function allOutput(result: CaseResult): string {
  return result.steps
    .map((step) => `${step.stdout}\n${step.stderr}\n${step.text ?? ''}\n${step.error ?? ''}`)
    .join('\n');
}
