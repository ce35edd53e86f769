import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A key that names a credential in npm, yarn or pip configuration (`_authToken`, `//host/:_password`, `npmAuthToken`). */
const SECRET_KEY = /(_auth|authtoken|_password|password|passwd|token|secret|certfile|keyfile|cafile|client-?key)/i;
/** A value with a password in its URL (`https://user:pass@host/simple`). */
const URL_WITH_PASSWORD = /:\/\/[^/\s:@]+:[^/\s@]+@/;

/**
 * The text of a configuration file with every line that holds a credential removed (npm's ini,
 * yarn's YAML, pip's ini): a key that names one, or a URL carrying a password. The rest of the
 * configuration (registry, nodedir, proxies without passwords) is kept, so tools still work.
 */
export function redactConfigText(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      // ini keys end at `=` (and may hold `:`, as in `//host/:_authToken`); YAML keys at `: `.
      const key = line.includes('=') ? (line.split('=')[0] ?? '') : (line.split(/:\s/)[0] ?? '');
      return SECRET_KEY.test(key) || URL_WITH_PASSWORD.test(line) ? '# (removed by the toolplane sandbox: a credential)' : line;
    })
    .join('\n');
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
