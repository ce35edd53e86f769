import { ToolplaneError } from '../errors/toolplane-error.js';
import type { SessionStore } from '../loop/session-store.js';

/**
 * The earlier session a run continues (`createAgentSession`'s `resume`): `resume` by its id, else
 * with `continueLatest` the store's most recent one that has a prompt (else its most recent), else
 * none (a new session). Throws `SESSION_CORRUPT` when `continueLatest` finds no earlier session in
 * the store's folder.
 */
export async function findSessionToResume(
  sessions: SessionStore,
  options: { readonly resume?: string; readonly continueLatest?: boolean },
): Promise<string | undefined> {
  if (options.resume !== undefined) return options.resume;
  if (!options.continueLatest) return undefined;
  // A session that never got a prompt (started, then closed) has nothing to continue.
  const listed = await sessions.list();
  const latest = (listed.find((session) => session.firstPrompt.trim() !== '') ?? listed[0])?.id;
  if (latest === undefined) {
    throw new ToolplaneError('SESSION_CORRUPT', 'There is no earlier session in this folder to continue.');
  }
  return latest;
}
