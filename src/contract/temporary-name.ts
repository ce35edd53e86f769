import { randomBytes } from 'node:crypto';

/**
 * Our temporary files are `.tp-<pid in base 36>-<8 hex>.tmp` in the folder of the file they will
 * become: at most 24 bytes whatever the target's name, so a target name of up to 255 bytes (the
 * file system's limit) can still be written, and the writer's pid tells a sweep whether it may
 * still be at work.
 */
const TEMPORARY = /^\.tp-([0-9a-z]{1,13})-[0-9a-f]{8}\.tmp$/;

/** A fresh temporary file name of this process (no folder). */
export function temporaryName(pid: number = process.pid): string {
  return `.tp-${pid.toString(36)}-${randomBytes(4).toString('hex')}.tmp`;
}

/** The pid of the process that made the temporary file `name`, or `undefined` for a name that is not ours. */
export function temporaryOwner(name: string): number | undefined {
  const match = TEMPORARY.exec(name);
  return match ? Number.parseInt(match[1]!, 36) : undefined;
}
