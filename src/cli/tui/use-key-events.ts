import { useStdin } from 'ink';
import { useEffect, useRef } from 'react';
import { createKeyReader, type KeyEvent } from './read-keys.js';

/**
 * Calls `handler` for every key press and paste, in order. Unlike Ink's `useInput`, which hands
 * over a run of keys written together as one string, each key of the run is its own event (text
 * then Enter, three Backspaces), and a bracketed paste is one event with its line breaks.
 */
export function useKeyEvents(handler: (event: KeyEvent) => void): void {
  const { internal_eventEmitter: events, setRawMode } = useStdin();
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    setRawMode(true);
    return () => setRawMode(false);
  }, [setRawMode]);
  useEffect(() => {
    const reader = createKeyReader();
    const onInput = (data: string) => {
      for (const event of reader.read(data)) latest.current(event);
    };
    events.on('input', onInput);
    return () => {
      events.off('input', onInput);
    };
  }, [events]);
}
