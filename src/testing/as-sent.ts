import type { MappedResult } from '../contract/tool.js';

/**
 * A mapped result as the model gets it when it is within its tool's size limit: the trailer joined
 * to the content with a newline, `fullOutput` left out. For tests of a tool's own mapping.
 */
export function asSent(mapped: MappedResult): MappedResult {
  const { trailer, fullOutput: _saved, ...rest } = mapped;
  if (trailer === undefined) return rest;
  if (typeof rest.content !== 'string') return { ...rest, content: [...rest.content, { type: 'text', text: trailer }] };
  return { ...rest, content: rest.content === '' ? trailer : `${rest.content}\n${trailer}` };
}
