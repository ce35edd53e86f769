import { defineService } from '../../contract/services.js';

/**
 * The host's read deny rules as a predicate: true when reading this absolute path is denied. Grep
 * and Glob drop such files from what they return, so a deny rule on `.env` also hides its lines
 * from a search of the whole project. Without the service nothing is dropped (no rules).
 */
export const READ_DENIED_PATH = defineService<(absolutePath: string) => boolean>('read-denied-path');

/** The note the model gets when results were withheld. */
export function withheldNote(count: number): string {
  return `(${count} ${count === 1 ? 'file was' : 'files were'} left out: permission rules deny reading ${count === 1 ? 'it' : 'them'}.)`;
}
