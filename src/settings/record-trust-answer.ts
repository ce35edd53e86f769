import { confirmContent, hashContent, heldRecord, holdKey, readHoldTable, readText } from './settings-holds.js';
import { writeProjectTrust } from './trust-store.js';

/** Options for {@link recordTrustAnswer}. */
export type RecordTrustAnswerOptions = {
  /** The trust store (`settingsPaths(...).trustStore`). */
  readonly storeFile: string;
  /** The record of held settings (`settingsPaths(...).heldSettings`). */
  readonly holdsFile: string;
  readonly projectDir: string;
  readonly trust: 'trusted' | 'untrusted';
  readonly signal?: AbortSignal;
};

/**
 * Writes a person's answer about a folder (`toolplane trust`, the terminal UI's question) and
 * records the store's new content as confirmed, so it applies at once. When the store's content
 * was written by a tool call (held), every other folder's `trusted` answer is dropped first:
 * answering about one folder must not confirm trust that someone else slipped in. Returns that,
 * and the store's text before and after (a running session records the write as the person's).
 */
export async function recordTrustAnswer(options: RecordTrustAnswerOptions): Promise<{
  readonly forgotOtherTrust: boolean;
  readonly before: string | undefined;
  readonly after: string;
}> {
  const signal = options.signal ? { signal: options.signal } : {};
  const [holds, text] = await Promise.all([
    readHoldTable(options.holdsFile, options.signal),
    readText(options.storeFile, options.signal),
  ]);
  const held = heldRecord(holds, await holdKey(options.storeFile), hashContent(text)) !== undefined;
  const { before, after } = await writeProjectTrust({
    storeFile: options.storeFile,
    projectDir: options.projectDir,
    trust: options.trust,
    forgetOtherTrust: held,
    ...signal,
  });
  await confirmContent({ storeFile: options.holdsFile, file: options.storeFile, text: after, ...signal });
  return { forgotOtherTrust: held, before, after };
}
