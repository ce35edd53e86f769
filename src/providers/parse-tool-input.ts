import { unparseableInput } from '../messages/types.js';

/**
 * The input of a tool call from its raw JSON text: `{}` when the text is empty (a call without
 * arguments), the parsed value when it is JSON, else the unparseable-input wrapper, so that the
 * plane answers the call with a parse error instead of the stream failing.
 */
export function parseToolInput(json: string): unknown {
  if (json.trim() === '') return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return unparseableInput(json);
  }
}
