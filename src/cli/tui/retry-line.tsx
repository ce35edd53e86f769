import { Text } from 'ink';
import { useCallback, useState } from 'react';
import type { LoopEvent } from '../../session/index.js';
import { describeRetryReason } from '../describe-model-error.js';
import type { InteractiveHost } from './interactive-host.js';
import { describeRetryCountdown, type RetryCountdown } from './retry-countdown.js';

/** Why a request is retried, in the words of the host's provider (its base URL and variable). */
function retryReason(host: InteractiveHost, event: Extract<LoopEvent, { type: 'retry' }>): string {
  const context = host.errorContext?.();
  return context ? describeRetryReason(event, context) : event.message;
}

/**
 * Passes the loop's events on to `onEvent`, keeping the retry the loop announced last until the
 * next event of the turn shows the request went on. Returns that countdown and the event handler.
 */
export function useRetryCountdown(host: InteractiveHost, onEvent: (event: LoopEvent) => void) {
  const [countdown, setCountdown] = useState<RetryCountdown | undefined>(undefined);
  const onLoopEvent = useCallback(
    (event: LoopEvent) => {
      if (event.type !== 'retry') setCountdown(undefined);
      else
        setCountdown({
          until: Date.now() + event.delayMs,
          attempt: event.attempt,
          maxRetries: event.maxRetries,
          reason: retryReason(host, event),
        });
      onEvent(event);
    },
    [host, onEvent],
  );
  return { countdown, onLoopEvent };
}

/** The live "retrying in Ns" line above the prompt. */
export function RetryLine(props: { readonly countdown: RetryCountdown; readonly now: number }) {
  return (
    <Text color="yellow" wrap="truncate-end">
      ⟳ {describeRetryCountdown(props.countdown, props.now)}
    </Text>
  );
}
