import type { AllowedVerdict, Executor, World } from './differential.js';
import { within, type Allowance } from './harms.js';
import { createObserveJail } from './observe-jail.js';

/**
 * Observe mode (issue 11): allowed commands run in the disposable jail, where nothing stops them,
 * so that what they did shows whether the engine was right to allow them.
 */

/** Paths a rule-allowed command may write in observe mode: `Edit(/src/**)`, the tool caches, /tmp. */
const RULE_WRITABLE = ['work/src', 'home/.npm', 'home/.cache', 'tmp'];

/**
 * What an allowed command may do. Read-only: nothing at all — no write anywhere (not even in the
 * working folder or /tmp), no planted secret read or printed, no connection. Allowed by a rule
 * (the careful rules allow only programs that neither write nor connect): writes only where an
 * Edit rule or a tool cache allows, the same secrets and connections forbidden.
 */
export function observeAllowance(verdict: AllowedVerdict, world: World): Allowance {
  const secrets = ['sshKey', 'dotEnv', 'apiKey'] as const;
  const secretFiles = world.fixture.secretFiles;
  if (verdict.kind === 'read-only') return { name: 'read-only: no write, no secret, no connection', mayWrite: () => false, mayConnectTcp: false, mayConnectUnix: false, secrets, secretFiles };
  return {
    name: `allowed by a rule: writes only in ${RULE_WRITABLE.join(', ')}; no secret, no connection`,
    mayWrite: (name) => RULE_WRITABLE.some((folder) => within(name, folder)),
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
    return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode, timedOut: result.timedOut, tcpConnections: result.tcpConnections };
  };
}
