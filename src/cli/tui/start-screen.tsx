import { useEffect, useMemo, type Dispatch } from 'react';
import { describeWelcome } from './describe-welcome.js';
import type { InteractiveHost } from './interactive-host.js';
import { replayHistory } from './replay-history.js';
import type { TranscriptAction } from './transcript-state.js';
import { WelcomePanel } from './welcome-panel.js';

/**
 * What the screen shows when the UI starts: the welcome panel (returned, for the transcript to
 * print first; a fresh screen after /clear or /resume goes without it), then the conversation of a resumed session (`-c`, `--resume`) replayed into the
 * transcript once, as `/resume` does.
 */
export function useStartScreen(host: InteractiveHost, dispatch: Dispatch<TranscriptAction>) {
  const header = useMemo(
    () => (host.welcome ? <WelcomePanel content={describeWelcome(host.status(), host.welcome())} /> : undefined),
    [host],
  );
  useEffect(() => {
    for (const action of replayHistory(host.history?.() ?? [], Date.now(), host.describeInput?.bind(host)))
      dispatch(action);
    // The history is the session's at the start; it is replayed once, when the app mounts.
  }, []);
  return header;
}
