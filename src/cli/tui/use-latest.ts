import { useCallback, useRef, useState } from 'react';

/**
 * A value kept in a ref and mirrored to state: the ref lets several keys of one input chunk see
 * each other's effect at once, the state makes the change render.
 */
export function useLatest<T>(initial: T): readonly [{ readonly current: T }, (next: T) => void] {
  const ref = useRef(initial);
  const [, setValue] = useState(initial);
  const set = useCallback((next: T) => {
    ref.current = next;
    setValue(next);
  }, []);
  return [ref, set];
}
