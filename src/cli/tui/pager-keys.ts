import type { PagerKey, PagerState } from './pager-state.js';
import { stepPager } from './pager-state.js';

type Ref<T> = { current: T };

/** What ctrl+o and the pager's keys reach. */
export type PagerRoutes = {
  readonly pager: Ref<PagerState | undefined>;
  readonly setPager: (state: PagerState | undefined) => void;
  /** The pager over the latest result, or undefined when there is none yet. */
  readonly openExpanded: () => PagerState | undefined;
  readonly setHint: (hint: string | undefined) => void;
};

/**
 * Gives a key to the open pager (every key: it covers the screen), or opens it on ctrl+o.
 * True when the key was taken.
 */
export function routePagerKey(routes: PagerRoutes, input: string, key: PagerKey): boolean {
  const open = routes.pager.current;
  if (open) {
    routes.setPager(stepPager(open, input, key));
    return true;
  }
  if (!(key.ctrl && input === 'o')) return false;
  const opened = routes.openExpanded();
  if (opened) routes.setPager(opened);
  else routes.setHint('no tool result to expand yet');
  return true;
}
