import { ToolplaneError } from '../errors/toolplane-error.js';
import type { SessionStore } from '../loop/session-store.js';

/**
 * The earlier session a run continues (`createAgentSession`'s `resume`): `resume` by its id, else
 * with `continueLatest` the store's most recent one, else none (a new session). Throws
 * `SESSION_CORRUPT` when `continueLatest` finds no earlier session in the store's folder.
 */
export async function findSessionToResume(
  sessions: SessionStore,
  options: { readonly resume?: string; readonly continueLatest?: boolean },
): Promise<string | undefined> {
  if (options.resume !== undefined) return options.resume;
  if (!options.continueLatest) return undefined;
  const latest = (await sessions.list())[0]?.id;
  if (latest === undefined) {
    throw new ToolplaneError('SESSION_CORRUPT', 'There is no earlier session in this folder to continue.');
  }
  return latest;
}
