/** The expand view: a text shown a screenful at a time. Plain data. */
export type PagerState = {
  readonly title: string;
  readonly lines: readonly string[];
  /** The first line shown (0-based). */
  readonly top: number;
  /** Lines shown at once (at least 1). */
  readonly height: number;
};

/** The keys the pager reads; Ink's key object has them all. */
export type PagerKey = {
  readonly upArrow: boolean;
  readonly downArrow: boolean;
  readonly escape: boolean;
  readonly ctrl: boolean;
  readonly home: boolean;
  readonly end: boolean;
  readonly pageUp?: boolean;
  readonly pageDown?: boolean;
};

/** Opens `text` at its first line, `height` lines at a time. */
export function openPager(options: {
  readonly title: string;
  readonly text: string;
  readonly height: number;
}): PagerState {
  return { title: options.title, lines: options.text.split('\n'), top: 0, height: Math.max(1, options.height) };
}

/** The lowest `top` that still fills the view. */
function lastTop(state: PagerState): number {
  return Math.max(0, state.lines.length - state.height);
}

/**
 * The pager after one key: ↑/↓ (or k/j) one line, PgUp/PgDn, b/space a page, Home/End (or g/G)
 * the ends; q, Esc or ctrl+o again close it (undefined). Other keys change nothing. Pure.
 */
export function stepPager(state: PagerState, input: string, key: PagerKey): PagerState | undefined {
  if (key.escape || input === 'q' || (key.ctrl && input === 'o')) return undefined;
  const move = (top: number) => ({ ...state, top: Math.min(lastTop(state), Math.max(0, top)) });
  if (key.upArrow || input === 'k') return move(state.top - 1);
  if (key.downArrow || input === 'j') return move(state.top + 1);
  if (key.pageUp === true || input === 'b') return move(state.top - state.height);
  if (key.pageDown === true || input === ' ') return move(state.top + state.height);
  if (key.home || input === 'g') return move(0);
  if (key.end || input === 'G') return move(lastTop(state));
  return state;
}
