import type { MappedResult } from '../../contract/tool.js';

/** A file tool's failure, returned (never thrown) so that it reaches the model as an error result. */
export type ToolFailure = { readonly kind: 'error'; readonly message: string };

/** Builds a {@link ToolFailure}; `message` says what went wrong and what to do next. */
export function toolFailure(message: string): ToolFailure {
  return { kind: 'error', message };
}

/** Maps a failure to an `is_error` result. */
export function mapToolFailure(failure: ToolFailure): MappedResult {
  return { content: failure.message, isError: true };
}
