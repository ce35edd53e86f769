import { readFile, realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { parseJsonDocument } from './parse-json-document.js';
import { writeFileAtomic } from './write-file-atomic.js';

/** What the person said about a project folder: trusted, untrusted, or never asked. */
export type ProjectTrust = 'trusted' | 'untrusted' | 'unknown';

const trustFileSchema = z.looseObject({
  projects: z.record(z.string(), z.looseObject({ trusted: z.boolean(), updatedAt: z.string().optional() })),
});

type TrustTable = Map<string, { trusted: boolean; updatedAt?: string }>;

/** Options naming the store file and the project folder. */
export type ProjectTrustOptions = {
  /** The trust store file (`settingsPaths(...).trustStore`). */
  readonly storeFile: string;
  readonly projectDir: string;
  readonly signal?: AbortSignal;
};

async function canonicalFolder(folder: string): Promise<string> {
  try {
    return await realpath(folder);
  } catch {
    return resolve(folder);
  }
}

/**
 * Reads the store. A missing file is an empty table; a damaged one is also read as empty (every
 * project becomes `unknown` and is asked again, which is the safe direction) and reported.
 */
async function readTable(
  storeFile: string,
  signal?: AbortSignal,
): Promise<{ table: TrustTable; damaged: boolean; text: string | undefined }> {
  let text: string;
  try {
    text = await readFile(storeFile, { encoding: 'utf8', signal });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { table: new Map(), damaged: false, text: undefined };
    throw error;
  }
  const parsed = parseJsonDocument(text);
  const result = parsed.ok ? trustFileSchema.safeParse(parsed.document.value) : undefined;
  if (!result?.success) return { table: new Map(), damaged: true, text };
  return { table: new Map(Object.entries(result.data.projects)), damaged: false, text };
}

/**
 * What the person decided about exactly this folder (symlinks resolved). Trust is per folder: a
 * trusted parent does not make its subfolders trusted.
 */
export async function readProjectTrust(
  options: ProjectTrustOptions,
): Promise<{ readonly trust: ProjectTrust; readonly damaged: boolean; readonly text: string | undefined }> {
  const { table, damaged, text } = await readTable(options.storeFile, options.signal);
  const entry = table.get(await canonicalFolder(options.projectDir));
  return { trust: entry === undefined ? 'unknown' : entry.trusted ? 'trusted' : 'untrusted', damaged, text };
}

/**
 * Remembers the person's answer for a folder, rewriting the store atomically, and returns the
 * text before and after. `forgetOtherTrust` drops every other folder's `trusted` answer (refusals
 * stay): used when the store's content was written by a tool call, so answering about one folder
 * does not confirm trust someone else slipped in.
 */
export async function writeProjectTrust(
  options: ProjectTrustOptions & { readonly trust: 'trusted' | 'untrusted'; readonly forgetOtherTrust?: boolean },
): Promise<{ readonly before: string | undefined; readonly after: string }> {
  const { table, text: before } = await readTable(options.storeFile, options.signal);
  const key = await canonicalFolder(options.projectDir);
  if (options.forgetOtherTrust) {
    for (const [folder, entry] of table) if (entry.trusted && folder !== key) table.delete(folder);
  }
  table.set(key, {
    trusted: options.trust === 'trusted',
    updatedAt: new Date().toISOString(),
  });
  const projects = Object.create(null) as Record<string, unknown>;
  for (const [folder, entry] of table) projects[folder] = entry;
  const after = `${JSON.stringify({ projects }, null, 2)}\n`;
  await writeFileAtomic({
    path: options.storeFile,
    text: after,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { before, after };
}

/** One folder the person answered about. */
export type ProjectTrustEntry = {
  readonly projectDir: string;
  readonly trust: 'trusted' | 'untrusted';
  readonly updatedAt?: string;
};

/** Every folder in the store, sorted by path; a damaged store lists nothing and says so. */
export async function listProjectTrust(options: {
  readonly storeFile: string;
  readonly signal?: AbortSignal;
}): Promise<{ readonly entries: readonly ProjectTrustEntry[]; readonly damaged: boolean }> {
  const { table, damaged } = await readTable(options.storeFile, options.signal);
  const entries = [...table]
    .map(([projectDir, entry]) => ({
      projectDir,
      trust: entry.trusted ? ('trusted' as const) : ('untrusted' as const),
      ...(entry.updatedAt ? { updatedAt: entry.updatedAt } : {}),
    }))
    .sort((a, b) => (a.projectDir < b.projectDir ? -1 : a.projectDir > b.projectDir ? 1 : 0));
  return { entries, damaged };
}

/** The folder as the store keys it: symlinks resolved, so `toolplane trust` and a run agree. */
export async function trustStoreKey(folder: string): Promise<string> {
  return canonicalFolder(folder);
}
