import { encodeText, DEFAULT_TEXT_FORMAT } from '../fs-helpers/text-codec.js';
import { suggestSimilarPaths } from '../fs-helpers/file-path-checks.js';
import { loadGuardedFile, type GuardedFile } from '../file-state/load-guarded-file.js';
import type { FileStateStore } from '../file-state/file-state-store.js';

/** An Edit ready to commit: the loaded file, the new bytes, where the change landed. */
export type EditPlan = {
  readonly ok: true;
  readonly file: GuardedFile;
  readonly data: Buffer;
  /** The new text (LF line breaks), for the snippet shown to the model. */
  readonly newText: string;
  readonly replacements: number;
  /** Where the first replacement starts and ends in `newText`. */
  readonly changeStart: number;
  readonly changeEnd: number;
};

/** Edit's parameters, as the plan needs them. */
export type EditRequest = {
  readonly filePath: string;
  readonly oldString: string;
  readonly newString: string;
  readonly replaceAll: boolean;
  readonly store: FileStateStore;
  readonly signal: AbortSignal;
};

/**
 * Works out an edit without writing anything: loads the file under the read guard, finds
 * `oldString` (exactly once unless `replaceAll`) and builds the new bytes in the file's own
 * format. Every refusal is a message for the model. Runs in `validateInput` (early feedback,
 * before any approval prompt) and again in `call` right before the guarded commit.
 */
export async function planEdit(
  request: EditRequest,
): Promise<EditPlan | { readonly ok: false; readonly message: string }> {
  const { filePath, replaceAll, signal } = request;
  if (request.oldString === request.newString) {
    return {
      ok: false,
      message:
        'old_string and new_string are identical, so the edit would change nothing. Give the new text in new_string.',
    };
  }
  const loaded = await loadGuardedFile({ filePath, store: request.store, requirement: 'any-read', signal });
  if (!loaded.ok) return loaded;
  const file = loaded.file;
  if (!file.exists) {
    if (request.oldString === '') {
      const data = encodeText(request.newString, DEFAULT_TEXT_FORMAT);
      return {
        ok: true,
        file,
        data,
        newText: request.newString,
        replacements: 1,
        changeStart: 0,
        changeEnd: request.newString.length,
      };
    }
    return {
      ok: false,
      message: `${filePath} does not exist, so there is nothing to replace.${await suggestSimilarPaths(filePath, signal)} To create a new file, use Write (or Edit with an empty old_string).`,
    };
  }
  // The file's CRLF breaks were turned into LF when it was decoded; match the model's text the same way.
  const crlf = file.format.lineEnding === 'crlf';
  const oldString = crlf ? request.oldString.replaceAll('\r\n', '\n') : request.oldString;
  const newString = crlf ? request.newString.replaceAll('\r\n', '\n') : request.newString;
  const text = file.text;
  if (oldString === '') {
    if (text.length > 0) {
      return {
        ok: false,
        message: `old_string is empty but ${filePath} already has content. Give the exact text to replace, or use Write to replace the whole file.`,
      };
    }
    return {
      ok: true,
      file,
      data: encodeText(newString, file.format),
      newText: newString,
      replacements: 1,
      changeStart: 0,
      changeEnd: newString.length,
    };
  }
  const first = text.indexOf(oldString);
  if (first === -1) return { ok: false, message: notFoundMessage(filePath, oldString, text) };
  const count = countOccurrences(text, oldString);
  if (count > 1 && !replaceAll) {
    return {
      ok: false,
      message: `old_string matches ${count} times in ${filePath}. Include more surrounding lines in old_string so that it matches exactly once, or set replace_all to true to replace all ${count}.`,
    };
  }
  const newText = replaceAll
    ? text.split(oldString).join(newString)
    : text.slice(0, first) + newString + text.slice(first + oldString.length);
  return {
    ok: true,
    file,
    data: encodeText(newText, file.format),
    newText,
    replacements: replaceAll ? count : 1,
    changeStart: first,
    changeEnd: first + newString.length,
  };
}

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) count++;
  return count;
}

function notFoundMessage(filePath: string, oldString: string, text: string): string {
  let hint =
    ' It must match the file exactly, including whitespace and indentation. Read the file again and copy the exact text.';
  if (/^\s*\d+\t/m.test(oldString)) {
    hint =
      ' It seems to include the line-number prefix that Read shows (a number and a tab); leave that out and copy only the file text.';
  } else if (oldString.includes('\n') && text.includes('\r\n') && text.includes(oldString.replaceAll('\n', '\r\n'))) {
    hint =
      ' The file mixes CRLF and LF line endings and those lines end in CRLF: write them with \\r\\n in old_string (and new_string), or edit one line at a time.';
  }
  return `old_string was not found in ${filePath}.${hint}`;
}
