import { recordTrustAnswer } from '../settings/record-trust-answer.js';
import { settingsPaths } from '../settings/settings-paths.js';
import { trustStoreKey } from '../settings/trust-store.js';
import type { SettingsGuard } from './runtime/settings-guard.js';

/**
 * `/trust` in the terminal UI: records that the person trusts the working folder, as
 * `toolplane trust` does, and returns what to tell them. The running session keeps the policy it
 * started with: the folder's own settings apply from the next start.
 */
export async function trustFolder(options: {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  /** The session's settings watch: the store's new content is the person's, not a tool call's. */
  readonly guard: SettingsGuard;
  readonly signal: AbortSignal;
}): Promise<string> {
  const paths = settingsPaths({ cwd: options.cwd, env: options.env, homeDir: options.homeDir });
  const { forgotOtherTrust, before, after } = await recordTrustAnswer({
    storeFile: paths.trustStore,
    holdsFile: paths.heldSettings,
    projectDir: options.cwd,
    trust: 'trusted',
    signal: options.signal,
  });
  await options.guard.recordPersonWrite({ file: paths.trustStore, before, after });
  const folder = await trustStoreKey(options.cwd);
  return [
    `Trusted ${folder} for later runs: restart toolplane to apply its own settings (allow rules, mode, hooks, MCP servers).`,
    `Undo with toolplane trust --revoke ${folder}.`,
    ...(forgotOtherTrust
      ? [`The trust store had been changed by a tool call: the other folders it trusted are no longer trusted.`]
      : []),
  ].join('\n');
}
