import { defineService } from '../../contract/services.js';
import type { Services } from '../../contract/services.js';
import type { FileReadRecord } from '../file-state/file-state-store.js';

/**
 * Which earlier tool results the model can still see whole: the host answers from the current
 * history (a result compacted away or replaced by a preview is not held).
 */
export type ContextResults = {
  holds(toolUseId: string): boolean;
};

export const CONTEXT_RESULTS = defineService<ContextResults>('context-results');

/** The lines a text Read showed: the first line and the limit it was given. */
export type ReadRange = { readonly offset: number; readonly limit: number | undefined };

/**
 * The id of an earlier Read whose result still stands for this one: the same range of a file
 * whose bytes, size and mtime have not changed since, with that result still whole in the
 * context. Otherwise `undefined`, and the read is a real one.
 */
export function standingRead(
  earlier: FileReadRecord | undefined,
  now: Pick<FileReadRecord, 'hash' | 'mtimeMs' | 'size'> & { readonly range: ReadRange },
  services: Services,
): string | undefined {
  const by = earlier?.readBy;
  if (!earlier || !by) return undefined;
  if (earlier.hash !== now.hash || earlier.mtimeMs !== now.mtimeMs || earlier.size !== now.size) return undefined;
  if (by.offset !== now.range.offset || by.limit !== now.range.limit) return undefined;
  return services.get(CONTEXT_RESULTS)?.holds(by.toolUseId) === true ? by.toolUseId : undefined;
}

/** What an unchanged re-read answers instead of the content again. */
export function unchangedReadNote(filePath: string, toolUseId: string): string {
  return `${filePath} is unchanged since your earlier Read of the same lines (tool call ${toolUseId}); that result is still current, so refer to it instead of reading again.`;
}
