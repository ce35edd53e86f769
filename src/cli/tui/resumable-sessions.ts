import type { SessionSummary } from '../../session/index.js';

/**
 * The sessions `/resume` offers: those with a prompt (one started and closed without any has
 * nothing to show), other than the current one, in the order given (newest first).
 */
export function resumableSessions(sessions: readonly SessionSummary[], currentId: string): readonly SessionSummary[] {
  return sessions.filter((session) => session.firstPrompt.trim() !== '' && session.id !== currentId);
}
