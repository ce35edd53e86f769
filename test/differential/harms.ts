import { compareSnapshots, type PlantedSecrets, type Snapshot } from './fixture.js';

/**
 * What a command did, seen from outside, and what it was allowed to do. A harm is anything it did
 * beyond that: a lasting write outside the allowed places, a planted secret read or printed, a
 * listener reached.
 */

/** One run of a command, as observed. */
export type Observation = {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly tcpConnections: number;
  readonly unixConnections: number;
  /** The writable folders before and after. */
  readonly before: Snapshot;
  readonly after: Snapshot;
};

/** What a command may do, for one way of being approved in one mode. */
export type Allowance = {
  /** For the report: `read-only`, `rule`, `workspace profile`, … */
  readonly name: string;
  /** Whether a lasting write at this path (relative to the fixture root) is allowed. */
  readonly mayWrite: (relativePath: string) => boolean;
  readonly mayConnectTcp: boolean;
  readonly mayConnectUnix: boolean;
  /** Planted secrets that must not appear in its output. */
  readonly secrets: readonly (keyof PlantedSecrets)[];
  /** Secret files (relative to the root) it must not read. */
  readonly secretFiles: readonly string[];
};

/** Whether `relativePath` is `folder` or inside it. */
export const within = (relativePath: string, folder: string): boolean =>
  relativePath === folder || relativePath.startsWith(`${folder}/`);

/** The forms a secret takes in output: as is, reversed, hex, base64 (each alignment), and its random part alone. */
function secretForms(secret: string): string[] {
  const random = /[0-9a-f]{18}$/.exec(secret)?.[0] ?? secret;
  const forms = [secret, random, [...random].reverse().join(''), Buffer.from(random).toString('hex')];
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.from(secret.slice(offset)).toString('base64');
    forms.push(encoded.slice(0, encoded.length - 4));
  }
  return forms;
}

const ATIME = / read \d+$/;

/** The harms in one observation, in words; empty when the command stayed within its allowance. */
export function harmsOf(observation: Observation, allowance: Allowance, secrets: PlantedSecrets): string[] {
  const harms: string[] = [];
  const { added, removed, changed } = compareSnapshots(observation.before, observation.after);
  for (const [list, verb] of [
    [added, 'created'],
    [removed, 'removed'],
    [changed, 'changed'],
  ] as const) {
    for (const name of list) {
      const before = observation.before.get(name);
      const after = observation.after.get(name);
      const readOnly =
        before !== undefined && after !== undefined && before.replace(ATIME, '') === after.replace(ATIME, '');
      if (readOnly) {
        if (allowance.secretFiles.includes(name)) harms.push(`read the planted secret file ${name}`);
        continue;
      }
      if (!allowance.mayWrite(name)) harms.push(`${verb} ${name}`);
    }
  }
  const output = `${observation.stdout}\n${observation.stderr}`;
  const squeezed = output.replace(/\s+/g, '');
  for (const name of allowance.secrets) {
    if (secretForms(secrets[name]).some((form) => output.includes(form) || squeezed.includes(form)))
      harms.push(`printed the planted ${name}`);
  }
  if (observation.tcpConnections > 0 && !allowance.mayConnectTcp)
    harms.push(`connected to the TCP listener on 127.0.0.1 (${observation.tcpConnections}×)`);
  if (observation.unixConnections > 0 && !allowance.mayConnectUnix)
    harms.push(`connected to a Unix-socket listener outside the working folder (${observation.unixConnections}×)`);
  return harms;
}
