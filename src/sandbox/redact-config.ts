import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A key that names a credential in npm, yarn or pip configuration (`_authToken`, `//host/:_password`, `npmAuthToken`, `npmAuthIdent`). */
const SECRET_KEY =
  /(_auth|authtoken|authident|_password|password|passwd|token|secret|certfile|keyfile|cafile|client-?key)/i;
/** npm's `key` (a client certificate's private key, given inline), also per registry (`//host/:key`). */
const PRIVATE_KEY = /(^|[:/\s])key\s*$/i;
/** A value with a password in its URL (`https://user:pass@host/simple`). */
const URL_WITH_PASSWORD = /:\/\/[^/\s:@]+:[^/\s@]+@/;

const REMOVED = '# (removed by the toolplane sandbox: a credential)';

/**
 * The text of a configuration file with every line that holds a credential removed (npm's ini,
 * yarn's YAML, pip's ini): a key that names one, or a URL carrying a password. A YAML flow mapping
 * (`{ npmAuthToken: … }`) is judged by every key in it, and the lines that continue a removed one
 * (a YAML block scalar such as `npmAuthToken: >-`, an ini continuation) go with it. The rest of
 * the configuration (registry, nodedir, proxies without passwords) is kept, so tools still work.
 */
export function redactConfigText(text: string): string {
  const lines = text.split('\n');
  const result: string[] = [];
  let removedIndent: number | undefined;
  for (const line of lines) {
    const indent = line.length - line.trimStart().length;
    if (removedIndent !== undefined && (line.trim() === '' || indent > removedIndent)) {
      result.push(line.trim() === '' ? line : REMOVED);
      continue;
    }
    removedIndent = undefined;
    if (holdsCredential(line)) {
      removedIndent = indent;
      result.push(REMOVED);
    } else {
      result.push(line);
    }
  }
  return result.join('\n');
}

function holdsCredential(line: string): boolean {
  if (URL_WITH_PASSWORD.test(line)) return true;
  // A flow mapping holds keys anywhere on the line.
  if (line.includes('{')) return SECRET_KEY.test(line);
  // ini keys end at `=` (and may hold `:`, as in `//host/:_authToken`); YAML keys at `: `.
  const key = line.includes('=') ? (line.split('=')[0] ?? '') : (line.split(/:(\s|$)/)[0] ?? '');
  return SECRET_KEY.test(key) || PRIVATE_KEY.test(key.trim());
}

/**
 * Writes redacted copies of the files that exist (into `folder`, one per file and version) and
 * returns where each went. A file that cannot be read is left to the caller to mask.
 */
export function redactedCopies(files: readonly string[], folder: string): Map<string, string> {
  const copies = new Map<string, string>();
  for (const file of files) {
    let real: string;
    let text: string;
    let version: string;
    try {
      real = realpathSync(file);
      const info = statSync(real);
      if (!info.isFile()) continue;
      version = `${folder}\0${real}\0${info.mtimeMs}\0${info.size}\0${info.ino}`;
      const known = made.get(version);
      if (known !== undefined) {
        copies.set(real, known);
        continue;
      }
      text = readFileSync(real, 'utf8');
    } catch {
      continue;
    }
    const redacted = redactConfigText(text);
    const name = `redacted-${createHash('sha256').update(real).update('\0').update(redacted).digest('hex').slice(0, 24)}`;
    const copy = path.join(folder, name);
    try {
      writeFileSync(copy, redacted, { mode: 0o444, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') continue;
    }
    made.set(version, copy);
    copies.set(real, copy);
  }
  return copies;
}

/** Copies already written this process, by file version: a launch then costs a stat, not a read. */
const made = new Map<string, string>();
