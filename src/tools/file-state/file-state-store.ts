import { createHash } from 'node:crypto';
import { defineService, type ServiceKey, type Services } from '../../contract/services.js';

/** What the model saw of one file when it last read (or wrote) it. */
export type FileReadRecord = {
  /** SHA-256 of the file's bytes on disk, hex. */
  readonly hash: string;
  readonly mtimeMs: number;
  readonly size: number;
  /** True when the model saw only a range of lines (offset/limit); Write needs a full read. */
  readonly partial: boolean;
  /** When the record was made (ms since the epoch). */
  readonly recordedAtMs: number;
  /** The text Read that made the record and the lines it showed (absent for writes). */
  readonly readBy?: { readonly toolUseId: string; readonly offset: number; readonly limit: number | undefined };
};

/**
 * Per-agent memory of which files the model has read and in what state: the basis of the write
 * guard (optimistic concurrency). Keys are real absolute paths.
 */
export type FileStateStore = {
  get(filePath: string): FileReadRecord | undefined;
  set(filePath: string, record: FileReadRecord): void;
  delete(filePath: string): void;
  clear(): void;
  /** Paths with a record, least recently used first. */
  paths(): readonly string[];
};

/**
 * The service key under which the host registers one {@link FileStateStore} per agent (each
 * subagent its own, so one agent's read never licenses another agent's write).
 */
export const fileStateService: ServiceKey<FileStateStore> = defineService<FileStateStore>('file-state');

/** Options for {@link createFileStateStore}. */
export type FileStateStoreOptions = {
  /** Most records kept; the least recently used is forgotten first (it must be read again). Default 1,000. */
  readonly maxEntries?: number;
};

/** Creates an in-memory, bounded file-state store. */
export function createFileStateStore(options: FileStateStoreOptions = {}): FileStateStore {
  const maxEntries = options.maxEntries ?? 1_000;
  const records = new Map<string, FileReadRecord>();
  return {
    get(filePath) {
      const record = records.get(filePath);
      if (record !== undefined) {
        records.delete(filePath);
        records.set(filePath, record);
      }
      return record;
    },
    set(filePath, record) {
      records.delete(filePath);
      records.set(filePath, record);
      while (records.size > maxEntries) {
        const oldest = records.keys().next();
        if (oldest.done === true) break;
        records.delete(oldest.value);
      }
    },
    delete(filePath) {
      records.delete(filePath);
    },
    clear() {
      records.clear();
    },
    paths() {
      return [...records.keys()];
    },
  };
}

/** The message a file tool returns when the host registered no file-state store. */
export const NO_FILE_STATE_STORE_MESSAGE =
  'This session has no file-state store registered, so reads cannot be recorded and writes cannot be checked against them. ' +
  'The host must register one (createFileStateStore) under fileStateService; until then file writes are refused.';

/** The registered store, or `undefined` when the host registered none. */
export function getFileStateStore(services: Services): FileStateStore | undefined {
  return services.get(fileStateService);
}

/** SHA-256 of bytes, hex: the content fingerprint the records hold. */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
