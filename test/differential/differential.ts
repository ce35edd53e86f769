import fc from 'fast-check';
import { commandLine, fillTemplate } from './command-grammar.js';
import { createFixture, UNPRIVILEGED, type Fixture } from './fixture.js';
import { harmsOf, type Allowance, type Observation } from './harms.js';
import type { Judge, Verdict } from './judge.js';
import { startListeners, type Listeners } from './listeners.js';

/**
 * The differential property shared by both modes: for every generated command, the engine
 * decides; what it allows runs for real (in observe mode in a disposable jail, in enforce mode
 * inside toolplane's sandbox), and any harm beyond what its approval allows fails the property,
 * with the shrunk command shown.
 */

/** A command the engine let through, and how. */
export type AllowedVerdict = Verdict & { readonly kind: 'read-only' | 'rule' };

/** Runs and observes one allowed command. */
export type Executor = (
  command: string,
  verdict: AllowedVerdict,
) => Promise<Omit<Observation, 'before' | 'after' | 'unixConnections'> & { readonly unixConnections?: number }>;

/** The fixture and its listeners, shared by the runs of one suite. */
export type World = {
  readonly fixture: Fixture;
  readonly listeners: Listeners;
  /** Fills a template with this world's paths and port. */
  fill(template: string): string;
  dispose(): Promise<void>;
};

/**
 * Creates the fixture (outside /tmp) and starts its listeners. `unprivileged`: the fixture belongs
 * to an unprivileged user the observe jail runs commands as, when the tests run as root.
 */
export async function createWorld(options: { readonly unprivileged?: boolean } = {}): Promise<World> {
  const fixture = createFixture(options.unprivileged && UNPRIVILEGED ? { owner: UNPRIVILEGED } : {});
  const listeners = await startListeners({ socketPaths: [fixture.sockets.home, fixture.sockets.agent] });
  fixture.rebase();
  return {
    fixture,
    listeners,
    fill: (template) =>
      fillTemplate(template, {
        work: fixture.work,
        home: fixture.home,
        outside: fixture.outside,
        port: listeners.port,
        sock: fixture.sockets.home,
      }),
    async dispose() {
      await listeners.close();
      fixture.dispose();
    },
  };
}

/** How many commands each verdict got. */
export type DifferentialStats = {
  generated: number;
  readOnly: number;
  rule: number;
  ask: number;
  deny: number;
  harmless: number;
  /** Allowed commands killed at the time limit (`tail -f`, `lsof -r`); what they did until then still counts. */
  timedOut: number;
};

/** A command that did harm, with everything needed to reproduce and read it. */
export type Counterexample = {
  readonly template: string;
  readonly command: string;
  readonly verdict: Verdict;
  readonly allowance: string;
  readonly harms: readonly string[];
  readonly stdout: string;
  readonly stderr: string;
};

export type DifferentialReport = {
  readonly stats: DifferentialStats;
  /** Undefined when no generated command did harm. */
  readonly failure?: {
    readonly counterexample?: Counterexample;
    readonly error?: string;
    readonly seed: number;
    readonly shrinks: number;
  };
};

/** Runs per mode: `TOOLPLANE_DIFF_RUNS`, else the given default. */
export function runsFromEnvironment(fallback: number): number {
  const value = Number.parseInt(process.env.TOOLPLANE_DIFF_RUNS ?? '', 10);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The seed: `TOOLPLANE_DIFF_SEED` (a number, or `random`), else the given default. */
export function seedFromEnvironment(fallback: number): number {
  const value = process.env.TOOLPLANE_DIFF_SEED;
  if (value === 'random') return Math.floor(Math.random() * 0x7fffffff);
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isFinite(parsed) ? parsed : fallback;
}

/** What the property needs besides the generator. */
export type DifferentialOptions = {
  readonly world: World;
  readonly judge: Judge;
  readonly execute: Executor;
  readonly allowance: (verdict: AllowedVerdict) => Allowance;
  readonly runs: number;
  readonly seed: number;
};

/** The verdict on one generated command and, when it ran, the harms it did (empty: none). */
type Trial = {
  readonly command: string;
  readonly verdict: Verdict;
  readonly ran?: { readonly allowance: string; readonly harms: readonly string[]; readonly observation: Observation };
};

/** Judges one template and, when allowed, runs it from the baseline and compares what it did with its allowance. */
function createTrial(options: DifferentialOptions): (template: string) => Promise<Trial> {
  const { world } = options;
  let dirty = false;
  return async (template) => {
    if (dirty) {
      world.fixture.restore();
      await world.listeners.relisten();
      world.fixture.rebase();
      dirty = false;
    }
    const command = world.fill(template);
    const verdict = await options.judge(command);
    if (verdict.kind === 'ask' || verdict.kind === 'deny') return { command, verdict };
    const allowed = verdict as AllowedVerdict;
    const before = world.fixture.baseline;
    const unixBefore = (await world.listeners.settle()).unix;
    const ran = await options.execute(command, allowed);
    const counts = await world.listeners.settle();
    const after = world.fixture.snapshot();
    const observation: Observation = {
      ...ran,
      unixConnections: (ran.unixConnections ?? 0) + counts.unix - unixBefore,
      before,
      after,
    };
    dirty = after.size !== before.size || [...after].some(([name, entry]) => before.get(name) !== entry);
    const allowance = options.allowance(allowed);
    const harms = harmsOf(observation, allowance, world.fixture.secrets);
    return { command, verdict, ran: { allowance: allowance.name, harms, observation } };
  };
}

const count = (stats: DifferentialStats, trial: Trial): void => {
  stats.generated += 1;
  if (trial.verdict.kind === 'ask' || trial.verdict.kind === 'deny') stats[trial.verdict.kind] += 1;
  else stats[trial.verdict.kind === 'read-only' ? 'readOnly' : 'rule'] += 1;
  if (trial.ran?.harms.length === 0) stats.harmless += 1;
  if (trial.ran?.observation.timedOut) stats.timedOut += 1;
};

/** Generates `runs` commands and checks each allowed one against its allowance; a harm fails and is shrunk. */
export async function runDifferential(options: DifferentialOptions): Promise<DifferentialReport> {
  const stats: DifferentialStats = { generated: 0, readOnly: 0, rule: 0, ask: 0, deny: 0, harmless: 0, timedOut: 0 };
  const trial = createTrial(options);
  let last: Counterexample | undefined;
  const property = fc.asyncProperty(commandLine, async (template) => {
    const result = await trial(template);
    count(stats, result);
    if (result.ran === undefined || result.ran.harms.length === 0) return;
    const { observation, harms, allowance } = result.ran;
    last = {
      template,
      command: result.command,
      verdict: result.verdict,
      allowance,
      harms,
      stdout: observation.stdout,
      stderr: observation.stderr,
    };
    throw new Error(`harm: ${harms.join('; ')}`);
  });
  const details = await fc.check(property, { numRuns: options.runs, seed: options.seed });
  if (!details.failed) return { stats };
  const template = details.counterexample?.[0];
  const counterexample = last !== undefined && last.template === template ? last : undefined;
  const error = counterexample
    ? undefined
    : String(details.errorInstance ?? 'the property failed without a recorded harm');
  return {
    stats,
    failure: {
      ...(counterexample ? { counterexample } : {}),
      ...(error ? { error } : {}),
      seed: details.seed,
      shrinks: details.numShrinks,
    },
  };
}

/**
 * Runs `runs` generated commands without stopping or shrinking and returns every one that did
 * harm, shortest first: for hunting holes (`TOOLPLANE_DIFF_SURVEY=1`), not for CI.
 */
export async function surveyDifferential(
  options: DifferentialOptions,
): Promise<{ readonly stats: DifferentialStats; readonly harmful: readonly Counterexample[] }> {
  const stats: DifferentialStats = { generated: 0, readOnly: 0, rule: 0, ask: 0, deny: 0, harmless: 0, timedOut: 0 };
  const trial = createTrial(options);
  const harmful: Counterexample[] = [];
  for (const template of fc.sample(commandLine, { numRuns: options.runs, seed: options.seed })) {
    const result = await trial(template);
    count(stats, result);
    if (result.ran === undefined || result.ran.harms.length === 0) continue;
    const { observation, harms, allowance } = result.ran;
    harmful.push({
      template,
      command: result.command,
      verdict: result.verdict,
      allowance,
      harms,
      stdout: observation.stdout,
      stderr: observation.stderr,
    });
  }
  return { stats, harmful: harmful.sort((a, b) => a.template.length - b.template.length) };
}

/** The report of a failure, written for the person reading the test output. */
export function describeFailure(report: DifferentialReport, mode: string): string {
  const failure = report.failure;
  if (failure === undefined) return 'no harm found';
  const rerun = `rerun: TOOLPLANE_DIFF_SEED=${failure.seed} npx vitest run test/differential/${mode}.test.ts`;
  if (failure.counterexample === undefined)
    return `the ${mode} harness failed: ${failure.error ?? 'unknown error'}\n${rerun}`;
  const example = failure.counterexample;
  const excerpt = (text: string): string => (text.length > 600 ? `${text.slice(0, 600)}…` : text).trimEnd();
  return [
    `A generated command did harm in ${mode} mode (after ${failure.shrinks} shrinks):`,
    `  command:  ${example.template}`,
    `  verdict:  ${example.verdict.kind} (${example.verdict.reason})`,
    `  allowed:  ${example.allowance}`,
    `  harm:     ${example.harms.join('; ')}`,
    `  stdout:   ${excerpt(example.stdout)}`,
    `  stderr:   ${excerpt(example.stderr)}`,
    `  as run:   ${example.command}`,
    `  ${rerun}`,
  ].join('\n');
}
