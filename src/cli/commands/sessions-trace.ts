import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { configDirectory, createSessionStore } from '../../session/index.js';
import { UsageError } from '../args.js';
import type { CommandIo } from '../headless.js';
import { readTrace } from '../trace/trace-model.js';
import { renderTracePage } from '../trace/trace-page.js';
import { parseCommandOperands } from './command-args.js';

const USAGE = 'Usage: toolplane sessions trace <SESSION_ID|TRANSCRIPT.jsonl> [--out FILE]';
const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The transcript of a session: this folder's first, then any project's under the config folder. */
async function findTranscript(idOrPath: string, io: CommandIo): Promise<string | undefined> {
  if (idOrPath.endsWith('.jsonl') || idOrPath.includes('/')) return resolve(io.cwd, idOrPath);
  if (!SESSION_ID.test(idOrPath)) throw new UsageError(`${JSON.stringify(idOrPath)} is not a session id. ${USAGE}`);
  const configDir = configDirectory(io.env, io.homeDir);
  const here = createSessionStore({ configDir, cwd: io.cwd });
  if (await here.has(idOrPath)) return join(here.folder, `${idOrPath}.jsonl`);
  const projects = join(configDir, 'projects');
  const folders = await readdir(projects).catch(() => [] as string[]);
  for (const folder of folders) {
    const candidate = join(projects, folder, `${idOrPath}.jsonl`);
    if ((await stat(candidate).catch(() => undefined))?.isFile() === true) return candidate;
  }
  return undefined;
}

/**
 * Writes a page readers see whole or not at all, always mode 0600 (it holds what the transcript
 * holds): a new file beside the target, renamed over it, so a link at the target is replaced,
 * never followed.
 */
async function writePrivately(path: string, text: string): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, text, { mode: 0o600, flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * `toolplane sessions trace <id|transcript> [--out FILE]`: the session's trace page, one
 * self-contained HTML file, by default beside the transcript (`<id>.trace.html`), mode 0600.
 * Prints the page's path. Exit 1 when the session is not found or cannot be read.
 */
export async function runSessionsTrace(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, operands } = parseCommandOperands(argv, { out: { type: 'string' } });
  if (operands.length !== 1) throw new UsageError(USAGE);
  const transcript = await findTranscript(operands[0]!, io);
  if (transcript === undefined) {
    io.stderr.write(`toolplane: no session ${operands[0]} (see \`toolplane sessions list\` in the folder it ran in)\n`);
    return 1;
  }
  let text: string;
  try {
    text = await readFile(transcript, 'utf8');
  } catch (error) {
    io.stderr.write(`toolplane: cannot read ${transcript}: ${(error as Error).message}\n`);
    return 1;
  }
  const model = readTrace(text, basename(transcript, '.jsonl'));
  const out =
    values.out === undefined
      ? join(dirname(transcript), `${basename(transcript, '.jsonl')}.trace.html`)
      : resolve(io.cwd, values.out);
  try {
    await writePrivately(out, renderTracePage(model));
  } catch (error) {
    io.stderr.write(`toolplane: cannot write ${out}: ${(error as Error).message}\n`);
    return 1;
  }
  const calls = model.turns.reduce((sum, turn) => sum + turn.calls.length, 0);
  io.stdout.write(`${out}\n`);
  io.stderr.write(
    `${model.turns.length} turns, ${calls} calls${model.hasLedger ? '' : ' (no decision ledger in this transcript)'}\n`,
  );
  return 0;
}
