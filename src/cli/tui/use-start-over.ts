import { useStdout } from 'ink';
import { useCallback, type Dispatch, type MutableRefObject, type SetStateAction } from 'react';
import type { TranscriptAction } from './transcript-state.js';

const CLEAR_SCREEN = '\x1b[2J\x1b[3J\x1b[H';

/**
 * A fresh screen (clear, resume): the transcript, the diffs seen and the static output start
 * over (the epoch remounts Ink's static part), the terminal is cleared, and `message` is the
 * first notice.
 */
export function useStartOver(options: {
  readonly dispatch: Dispatch<TranscriptAction>;
  readonly diffed: MutableRefObject<Set<string>>;
  readonly setEpoch: Dispatch<SetStateAction<number>>;
  readonly notice: (text: string) => void;
}): (message: string) => void {
  const { dispatch, diffed, setEpoch, notice } = options;
  const { write } = useStdout();
  return useCallback(
    (message: string) => {
      dispatch({ type: 'clear' });
      diffed.current.clear();
      setEpoch((value) => value + 1);
      write(CLEAR_SCREEN);
      notice(message);
    },
    [dispatch, diffed, setEpoch, notice, write],
  );
}
