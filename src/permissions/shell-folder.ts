import { realpathSync, statSync } from 'node:fs';
import type { CallSubject } from '../contract/gates.js';
import { SHELL_STATE } from '../contract/shell-state.js';

/** The folder the shell is in for this session (as the Bash tool picks it), else the call's folder. */
export function shellFolder(subject: CallSubject): string {
  const remembered = subject.context.services.get(SHELL_STATE)?.getCwd(subject.context.sessionId);
  if (remembered === undefined || remembered === subject.context.cwd) return subject.context.cwd;
  try {
    // The tool falls back to the call's folder when the remembered one is gone; so does the check.
    if (!statSync(remembered).isDirectory()) return subject.context.cwd;
    // The shell records `pwd -P`: the session folder spelled through a symlink is still the session folder.
    return realpathSync(remembered) === realpathSync(subject.context.cwd) ? subject.context.cwd : remembered;
  } catch {
    return subject.context.cwd;
  }
}
