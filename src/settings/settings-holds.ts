import { createHash } from 'node:crypto';
import { readFile, realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { parseJsonDocument } from './parse-json-document.js';
import { parseSettingsText } from './parse-settings-text.js';
import { writeFileAtomic } from './write-file-atomic.js';

/**
 * The record of settings and MCP configuration files that tool calls changed. A file whose
 * current content a tool call wrote is *held*: until a person confirms it, only its deny and ask
 * rules apply (with those it had before the change), in this session and in later ones, headless
 * included. Files toolplane writes itself at a person's request are recorded as *confirmed*.
 * Records are keyed by the file's real path and a hash of its content, so an edit by a person
 * afterwards (a content nobody recorded) applies as usual.
 */

/** The hash of a file's content; `absent` for a file that does not exist. */
export type ContentHash = string;

/** The content hash of a missing file (a tool call may delete a settings file). */
export const ABSENT: ContentHash = 'absent';

/** Deny and ask rules a file had before a tool call changed it: they keep applying while it is held. */
export type KeptRules = { readonly deny: readonly string[]; readonly ask: readonly string[] };

/** What is on record for one content of one file. */
export type HoldRecord = {
  readonly state: 'held' | 'confirmed';
  /** ISO time of the record. */
  readonly at: string;
  /** The session whose tool call wrote it (held records). */
  readonly session?: string;
  readonly kept?: KeptRules;
};

/** The whole record, by real path, then content hash. */
export type HoldTable = {
  readonly files: ReadonlyMap<string, ReadonlyMap<ContentHash, HoldRecord>>;
  /** The record file exists but cannot be read as one: every watched file counts as held. */
  readonly damaged: boolean;
};

/** A held file as the loader and the UI see it. */
export type HeldFile = { readonly file: string; readonly hash: ContentHash; readonly record: HoldRecord };

/** Versions kept per file: enough for a session's worth of changes, small enough to read at start. */
const MAX_RECORDS_PER_FILE = 16;

const keptSchema = z.object({ deny: z.array(z.string()), ask: z.array(z.string()) });
const recordSchema = z.object({
  state: z.enum(['held', 'confirmed']),
  at: z.string(),
  session: z.string().optional(),
  kept: keptSchema.optional(),
});
const storeSchema = z.looseObject({ files: z.record(z.string(), z.record(z.string(), recordSchema)) });

/** The hash of a settings file's text (sha256), or {@link ABSENT}. */
export function hashContent(text: string | undefined): ContentHash {
  return text === undefined ? ABSENT : createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The key a file is recorded under: its real path (symlinks resolved), so spellings agree. */
export async function holdKey(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return resolve(file);
  }
}

/** A file's text, or undefined when it does not exist. */
export async function readText(file: string, signal?: AbortSignal): Promise<string | undefined> {
  try {
    return await readFile(file, { encoding: 'utf8', signal });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw error;
  }
}

/** Reads the record. A missing file is an empty record; a damaged one is reported as such. */
export async function readHoldTable(storeFile: string, signal?: AbortSignal): Promise<HoldTable> {
  const text = await readText(storeFile, signal);
  if (text === undefined) return { files: new Map(), damaged: false };
  const parsed = parseJsonDocument(text);
  const result = parsed.ok ? storeSchema.safeParse(parsed.document.value) : undefined;
  if (!result?.success) return { files: new Map(), damaged: true };
  const files = new Map<string, Map<ContentHash, HoldRecord>>();
  for (const [file, records] of Object.entries(result.data.files)) {
    files.set(file, new Map(Object.entries(records).map(([hash, record]) => [hash, stripUndefined(record)])));
  }
  return { files, damaged: false };
}

function stripUndefined(record: z.infer<typeof recordSchema>): HoldRecord {
  return {
    state: record.state,
    at: record.at,
    ...(record.session === undefined ? {} : { session: record.session }),
    ...(record.kept === undefined ? {} : { kept: record.kept }),
  };
}

/**
 * Whether this content of this file is held, and its record. A damaged record holds every file
 * (fail closed: the record is what keeps a tool call's change from loosening the policy).
 */
export function heldRecord(table: HoldTable, key: string, hash: ContentHash): HoldRecord | undefined {
  if (table.damaged) return { state: 'held', at: new Date(0).toISOString() };
  const record = table.files.get(key)?.get(hash);
  return record?.state === 'held' ? record : undefined;
}

/** The deny and ask rules of a settings text (none when it cannot be parsed, or for `.mcp.json`). */
export function denyAndAskRules(text: string | undefined): KeptRules {
  if (text === undefined) return { deny: [], ask: [] };
  try {
    const { settings } = parseSettingsText(text, 'settings');
    return { deny: settings.permissions?.deny ?? [], ask: settings.permissions?.ask ?? [] };
  } catch {
    return { deny: [], ask: [] };
  }
}

/** Both sets of rules, each rule once, in order. */
export function mergeKept(a: KeptRules | undefined, b: KeptRules | undefined): KeptRules {
  return {
    deny: [...new Set([...(a?.deny ?? []), ...(b?.deny ?? [])])],
    ask: [...new Set([...(a?.ask ?? []), ...(b?.ask ?? [])])],
  };
}

/** One change to record. */
export type HoldChange = { readonly key: string; readonly hash: ContentHash; readonly record: HoldRecord };

/** Record writes in flight per store file, so two in one process never lose each other's change. */
const pending = new Map<string, Promise<unknown>>();

/**
 * Adds records to the store, rewriting it atomically; the latest record for a (file, content)
 * wins, and each file keeps its {@link MAX_RECORDS_PER_FILE} newest. A damaged store is replaced
 * by these records alone, which leaves every other file held no longer: only a person's
 * confirmation (or toolplane's own write) calls this with `confirmed`.
 */
export async function recordHolds(
  storeFile: string,
  changes: readonly HoldChange[],
  signal?: AbortSignal,
): Promise<void> {
  if (changes.length === 0) return;
  const previous = pending.get(storeFile) ?? Promise.resolve();
  const next = previous
    .catch(() => undefined)
    .then(async () => {
      const table = await readHoldTable(storeFile, signal);
      const files = new Map<string, Map<ContentHash, HoldRecord>>(
        [...table.files].map(([file, records]) => [file, new Map(records)]),
      );
      for (const change of changes) {
        const records = files.get(change.key) ?? new Map<ContentHash, HoldRecord>();
        records.delete(change.hash);
        records.set(change.hash, change.record);
        while (records.size > MAX_RECORDS_PER_FILE) records.delete(records.keys().next().value as ContentHash);
        files.set(change.key, records);
      }
      const out = Object.create(null) as Record<string, Record<string, HoldRecord>>;
      for (const [file, records] of files)
        out[file] = Object.assign(Object.create(null) as Record<string, HoldRecord>, Object.fromEntries(records));
      await writeFileAtomic({
        path: storeFile,
        text: `${JSON.stringify({ files: out }, null, 2)}\n`,
        ...(signal ? { signal } : {}),
      });
    });
  pending.set(storeFile, next);
  try {
    await next;
  } finally {
    if (pending.get(storeFile) === next) pending.delete(storeFile);
  }
}

/** Records the current content of `file` as confirmed by a person (or written by toolplane for one). */
export async function confirmContent(options: {
  readonly storeFile: string;
  readonly file: string;
  readonly text: string | undefined;
  readonly signal?: AbortSignal;
}): Promise<void> {
  const key = await holdKey(options.file);
  await recordHolds(
    options.storeFile,
    [{ key, hash: hashContent(options.text), record: { state: 'confirmed', at: new Date().toISOString() } }],
    options.signal,
  );
}
