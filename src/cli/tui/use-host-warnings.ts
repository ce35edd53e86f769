import { useEffect, type Dispatch } from 'react';
import { useNotice } from './app-hooks.js';
import type { InteractiveHost } from './interactive-host.js';
import type { TranscriptAction } from './transcript-state.js';

/**
 * {@link useNotice}, and the runtime's warnings (a saved rule, a changed settings file) shown as
 * notices while the UI draws: written to the terminal behind Ink's back, they would garble it.
 */
export function useNoticeAndWarnings(dispatch: Dispatch<TranscriptAction>, host: InteractiveHost) {
  const notice = useNotice(dispatch);
  useEffect(
    () => host.onWarning?.((line) => notice(line, /^warning\b/i.test(line) ? 'warning' : 'info')),
    [host, notice],
  );
  return notice;
}
