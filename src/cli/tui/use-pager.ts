import { useStdout } from 'ink';
import { expandTarget } from './expand-target.js';
import type { PagerRoutes } from './pager-keys.js';
import { openPager, type PagerState } from './pager-state.js';
import type { TranscriptState } from './transcript-state.js';
import { useLatest } from './use-latest.js';

/** The expand view's state, and opening it over the latest result of `transcript` (ctrl+o). */
export function usePager(transcript: TranscriptState): Omit<PagerRoutes, 'setHint'> {
  const { stdout } = useStdout();
  const [pager, setPager] = useLatest<PagerState | undefined>(undefined);
  const openExpanded = () => {
    const target = expandTarget(transcript);
    // A title and a footer line, and one row spare so the frame never fills the screen (Ink would clear it).
    return target ? openPager({ ...target, height: (stdout.rows || 24) - 3 }) : undefined;
  };
  return { pager, setPager, openExpanded };
}
