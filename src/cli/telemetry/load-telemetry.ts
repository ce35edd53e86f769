import { packageVersion } from '../package-root.js';
import type { RunningTelemetry } from './start-telemetry.js';
import { readTelemetryConfig, telemetryEnabled } from './telemetry-config.js';

/**
 * Telemetry for a session, when it is on: the configuration read from the process's environment
 * with the `env` of the managed, user and `--settings` files over it (never a project's file), and
 * the OpenTelemetry SDK loaded only then, so a run without telemetry never reads it. Problems with
 * the configuration are reported through `warn`; `undefined` when telemetry is off.
 */
export async function loadTelemetry(options: {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly settingsEnv: ReadonlyMap<string, string>;
  readonly warn: (line: string) => void;
}): Promise<RunningTelemetry | undefined> {
  const env =
    options.settingsEnv.size > 0 ? { ...options.env, ...Object.fromEntries(options.settingsEnv) } : options.env;
  if (!telemetryEnabled(env)) return undefined;
  const problems: string[] = [];
  const config = readTelemetryConfig(env, problems);
  for (const problem of problems) options.warn(`warning: telemetry: ${problem}`);
  if (config === undefined) return undefined;
  const { startTelemetry } = await import('./start-telemetry.js');
  return startTelemetry({ config, version: packageVersion(), warn: options.warn });
}
