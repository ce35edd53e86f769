import {
  ABSENT,
  denyAndAskRules,
  hashContent,
  heldRecord,
  holdKey,
  mergeKept,
  readHoldTable,
  readText,
  recordHolds,
  type ContentHash,
  type HoldChange,
  type KeptRules,
} from './settings-holds.js';

/** A watched file that a tool call changed, now held. */
export type HeldChangeReport = { readonly file: string; readonly deleted: boolean };

/** Options for {@link createSettingsWatch}. */
export type SettingsWatchOptions = {
  /** Every settings and MCP configuration file the session's policy is built from. */
  readonly files: readonly string[];
  /** The hold record (`settingsPaths(...).heldSettings`). */
  readonly storeFile: string;
  /** Named in the records of changes this session's tool calls made. */
  readonly sessionId: () => string;
  readonly signal?: AbortSignal;
};

/** The watch over one session's settings files. */
export type SettingsWatch = {
  /**
   * Compares every watched file with its last known content and records each change as held
   * (tool calls ran since the last scan). Call after each tool batch and when the session ends.
   */
  scan(signal?: AbortSignal): Promise<readonly HeldChangeReport[]>;
  /**
   * toolplane rewrote `file` at a person's request ("always allow" saving a rule): the new
   * content is confirmed, unless what it started from was held or changed unseen since the last
   * scan, in which case the new content stays held too (a saved rule must not launder a change a
   * tool call made). Returns the state recorded.
   */
  recordOwnWrite(change: {
    readonly file: string;
    readonly previousHash: ContentHash;
    readonly hash: ContentHash;
    readonly previousText?: string;
  }): Promise<'confirmed' | 'held'>;
};

type Known = { hash: ContentHash; held: boolean; kept: KeptRules; text: string | undefined };

/**
 * Starts watching: reads each file's content and hold state now, as the baseline later scans
 * compare against. Files that do not exist are watched for creation.
 */
export async function createSettingsWatch(options: SettingsWatchOptions): Promise<SettingsWatch> {
  const table = await readHoldTable(options.storeFile, options.signal);
  const known = new Map<string, Known>();
  const keys = new Map<string, string>();
  for (const file of new Set(options.files)) {
    const key = await holdKey(file);
    keys.set(file, key);
    const text = await readText(file, options.signal);
    const hash = hashContent(text);
    const record = heldRecord(table, key, hash);
    known.set(file, { hash, held: record !== undefined, kept: record?.kept ?? { deny: [], ask: [] }, text });
  }

  const heldChange = (key: string, hash: ContentHash, kept: KeptRules): HoldChange => ({
    key,
    hash,
    record: { state: 'held', at: new Date().toISOString(), session: options.sessionId(), kept },
  });

  return {
    async scan(signal) {
      const changes: HoldChange[] = [];
      const reports: HeldChangeReport[] = [];
      for (const [file, before] of known) {
        const text = await readText(file, signal);
        const hash = hashContent(text);
        if (hash === before.hash) continue;
        // The deny and ask rules of every content since the last confirmed one keep applying.
        const kept = mergeKept(before.kept, denyAndAskRules(before.text));
        known.set(file, { hash, held: true, kept, text });
        changes.push(heldChange(keys.get(file) ?? file, hash, kept));
        reports.push({ file, deleted: hash === ABSENT });
      }
      await recordHolds(options.storeFile, changes, signal);
      return reports;
    },
    async recordOwnWrite(change) {
      const before = known.get(change.file);
      const key = keys.get(change.file) ?? (await holdKey(change.file));
      const clean = before !== undefined && before.hash === change.previousHash && !before.held;
      const text = await readText(change.file);
      if (clean) {
        known.set(change.file, { hash: change.hash, held: false, kept: { deny: [], ask: [] }, text });
        await recordHolds(options.storeFile, [
          { key, hash: change.hash, record: { state: 'confirmed', at: new Date().toISOString() } },
        ]);
        return 'confirmed';
      }
      const kept = mergeKept(
        before?.kept,
        mergeKept(denyAndAskRules(before?.text), denyAndAskRules(change.previousText)),
      );
      known.set(change.file, { hash: change.hash, held: true, kept, text });
      await recordHolds(options.storeFile, [heldChange(key, change.hash, kept)]);
      return 'held';
    },
  };
}
