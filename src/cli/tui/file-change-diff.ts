import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { diffLines } from 'diff';

/** One line of a change as shown: added, removed, or unchanged context. */
export type DiffLine = { readonly kind: 'add' | 'remove' | 'context'; readonly text: string };

/** Files larger than this are not read to show a Write's diff (bytes). */
const MAX_READ_BYTES = 1_000_000;

/** Unchanged lines kept around each change. */
const CONTEXT_LINES = 2;

/**
 * The line diff between two texts, with at most two unchanged lines around each change (longer
 * unchanged runs are dropped and marked with a `…` context line).
 */
export function diffTexts(before: string, after: string): readonly DiffLine[] {
  const lines: DiffLine[] = [];
  for (const change of diffLines(before, after)) {
    const kind = change.added ? 'add' : change.removed ? 'remove' : 'context';
    const texts = change.value.endsWith('\n') ? change.value.slice(0, -1).split('\n') : change.value.split('\n');
    for (const text of texts) lines.push({ kind, text });
  }
  return trimContext(lines);
}

function trimContext(lines: readonly DiffLine[]): readonly DiffLine[] {
  const near = lines.map(() => false);
  lines.forEach((line, index) => {
    if (line.kind === 'context') return;
    for (let offset = -CONTEXT_LINES; offset <= CONTEXT_LINES; offset++) {
      if (index + offset >= 0 && index + offset < lines.length) near[index + offset] = true;
    }
  });
  const kept: DiffLine[] = [];
  let skipping = false;
  lines.forEach((line, index) => {
    if (near[index]) {
      kept.push(line);
      skipping = false;
    } else if (!skipping) {
      kept.push({ kind: 'context', text: '…' });
      skipping = true;
    }
  });
  return kept;
}

/**
 * What an Edit or Write call would change, as diff lines; `undefined` for other tools or input
 * that is not an Edit's or Write's. Edit: `old_string` → `new_string`. Write: the file's current
 * content (from `readCurrent`, `undefined` when it does not exist) → `content`.
 */
export function fileChangeDiff(options: {
  readonly toolName: string;
  readonly input: unknown;
  readonly readCurrent: (filePath: string) => string | undefined;
}): readonly DiffLine[] | undefined {
  const { toolName, input } = options;
  if (typeof input !== 'object' || input === null) return undefined;
  const fields = input as Record<string, unknown>;
  if (toolName === 'Edit') {
    const before = fields['old_string'];
    const after = fields['new_string'];
    if (typeof before !== 'string' || typeof after !== 'string') return undefined;
    return diffTexts(before, after);
  }
  if (toolName === 'Write') {
    const path = fields['file_path'];
    const content = fields['content'];
    if (typeof path !== 'string' || typeof content !== 'string') return undefined;
    const current = options.readCurrent(path);
    return current === undefined ? diffTexts('', content) : diffTexts(current, content);
  }
  return undefined;
}

/** {@link fileChangeDiff} against the files on disk, relative paths resolved against `cwd`. */
export function diffOnDisk(toolName: string, input: unknown, cwd: string): readonly DiffLine[] | undefined {
  return fileChangeDiff({ toolName, input, readCurrent: (path) => readCurrentText(path, cwd) });
}

/**
 * Reads a file's current text for a Write's diff: `undefined` when it does not exist, is not a
 * regular file, or is too large to show. Relative paths resolve against `cwd`.
 */
export function readCurrentText(filePath: string, cwd: string): string | undefined {
  const path = isAbsolute(filePath) ? filePath : resolve(cwd, filePath);
  try {
    const info = statSync(path);
    if (!info.isFile() || info.size > MAX_READ_BYTES) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
