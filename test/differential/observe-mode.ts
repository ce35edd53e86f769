import path from 'node:path';
import { protectedPathReason } from '../../src/permissions/protected-paths.js';
import type { AllowedVerdict, Executor, World } from './differential.js';
import { within, type Allowance } from './harms.js';
import { createObserveJail } from './observe-jail.js';

/**
 * Observe mode (issue 11): allowed commands run in the disposable jail, where nothing stops them,
 * so that what they did shows whether the engine was right to allow them.
 */

/** Paths a rule-allowed command may write in observe mode: the working folder, the tool caches, /tmp. */
const RULE_WRITABLE = ['work', 'home/.npm', 'home/.cache', 'tmp'];

/**
 * What an allowed command may do. Read-only: nothing at all — no write anywhere (not even in the
 * working folder or /tmp), no planted secret read or printed, no connection. Allowed by a rule:
 * what the allowed program writes itself (`npm test` its coverage, `git log --output=log.txt`)
 * may land in the working folder, but never on a protected path (`.git/hooks`, shell startup
 * files, agent settings, …), and never elsewhere but the tool caches and /tmp; the same secrets
 * and connections are forbidden (the careful rules allow no program that connects).
 */
export function observeAllowance(verdict: AllowedVerdict, world: World): Allowance {
  const secrets = ['sshKey', 'dotEnv', 'apiKey'] as const;
  const secretFiles = world.fixture.secretFiles;
  if (verdict.kind === 'read-only')
    return {
      name: 'read-only: no write, no secret, no connection',
      mayWrite: () => false,
      mayConnectTcp: false,
      mayConnectUnix: false,
      secrets,
      secretFiles,
    };
  return {
    name: `allowed by a rule: writes only in ${RULE_WRITABLE.join(', ')}, not on protected paths; no secret, no connection`,
    mayWrite: (name) =>
      RULE_WRITABLE.some((folder) => within(name, folder)) &&
      protectedPathReason(path.join(world.fixture.root, name)) === undefined,
    mayConnectTcp: false,
    mayConnectUnix: false,
    secrets,
    secretFiles,
  };
}

/** Runs allowed commands in the observe jail. */
export function observeExecutor(world: World): Executor {
  const jail = createObserveJail(world.fixture);
  return async (command) => {
    const result = await jail.run(command, { port: world.listeners.port });
    return {
      stdout: result.stdout,
      stderr: result.stderr,
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      tcpConnections: result.tcpConnections,
    };
  };
}
