import { markerText } from './types.js';

/**
 * Tool inputs whose shape the plane refuses before anything reads them: JSON nested so deeply
 * that a recursive walk (a schema parse, `JSON.stringify` of the next request or the transcript,
 * a hook's stdin) would overflow the stack. The refused input is replaced everywhere it is kept
 * by a small placeholder that says why.
 */

/** The deepest nesting of arrays and objects a tool input may have; `{"a": [1]}` is 2 levels. */
export const MAX_TOOL_INPUT_DEPTH = 128;

/** The key of the placeholder that stands for a refused input in the history and the transcript. */
export const REFUSED_INPUT_KEY = '__toolplane_refused_input__';

/**
 * Whether `value` nests arrays and objects more than `limit` levels deep. Iterative (it never
 * recurses, whatever the depth), depth first, and it stops at the first container past the limit,
 * so a cyclic value counts as too deep.
 */
export function inputDepthExceeds(value: unknown, limit: number = MAX_TOOL_INPUT_DEPTH): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > limit) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (typeof child !== 'object' || child === null) continue;
      values.push(child);
      depths.push(depth + 1);
    }
  }
  return false;
}

/** The placeholder kept in place of a refused input, with the reason the plane refused it. */
export function refusedInput(reason: string): { readonly [REFUSED_INPUT_KEY]: string } {
  return { [REFUSED_INPUT_KEY]: reason };
}

/** The reason if `input` is the placeholder of a refused input, else `undefined`. */
export function getRefusedInput(input: unknown): string | undefined {
  return markerText(input, REFUSED_INPUT_KEY);
}

/** The reason a nested input is refused, for the model. */
export const TOO_DEEP_REASON = `The input nests arrays and objects more than ${MAX_TOOL_INPUT_DEPTH} levels deep, the limit; it was refused before it was read and is not kept (this placeholder stands in for it). Send a flatter input.`;
