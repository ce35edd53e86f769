import type { LoopEvent } from '../session/index.js';

/** One line for people about a model request being retried: what failed, the wait, which attempt. */
export function describeRetry(event: Extract<LoopEvent, { type: 'retry' }>): string {
  const seconds = (event.delayMs / 1000).toFixed(1);
  return `The model request failed (${event.message}); retrying in ${seconds} s (retry ${event.attempt} of ${event.maxRetries}).`;
}
