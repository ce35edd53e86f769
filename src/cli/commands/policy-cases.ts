import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { PERMISSION_MODES } from '../../contract/permission.js';
import { UsageError } from '../args.js';

const settingsSchema = z.union([z.string().min(1), z.record(z.string(), z.unknown())]);
const modeSchema = z.enum(PERMISSION_MODES as unknown as [string, ...string[]]);

const caseSchema = z.strictObject({
  name: z.string().min(1).optional(),
  tool: z.string().min(1),
  input: z.record(z.string(), z.unknown()).default({}),
  expect: z.enum(['allow', 'deny', 'ask']),
  mode: modeSchema.optional(),
  settings: settingsSchema.optional(),
});

const fileSchema = z.strictObject({
  /** Settings every case adds to the folder's own, as `--settings` does: a file (relative to the test file) or an object. */
  settings: settingsSchema.optional(),
  mode: modeSchema.optional(),
  /** The working folder whose settings apply, relative to the test file. Default: where the command runs. */
  cwd: z.string().min(1).optional(),
  cases: z.array(caseSchema).min(1),
});

/** One case of a policy test file, its settings resolved. */
export type PolicyCase = {
  readonly name: string;
  readonly tool: string;
  readonly input: Record<string, unknown>;
  readonly expect: 'allow' | 'deny' | 'ask';
  readonly mode: string | undefined;
  /** `--settings` for this case: a path, or inline JSON text. */
  readonly settings: string | undefined;
};

/** A policy test file as read: its cases and the folder whose settings they test. */
export type PolicyTestFile = { readonly cwd: string | undefined; readonly cases: readonly PolicyCase[] };

/** A case's name when it has none: the tool and its input, as a person would write the call. */
function defaultName(tool: string, input: Record<string, unknown>): string {
  const shown = JSON.stringify(input);
  const points = [...shown];
  return `${tool} ${points.length > 80 ? `${points.slice(0, 80).join('')}…` : shown}`;
}

/**
 * Reads a policy test file (JSON): `{"settings"?, "mode"?, "cwd"?, "cases": [{"name"?, "tool",
 * "input", "expect": "allow"|"deny"|"ask", "mode"?, "settings"?}]}`. A case's settings replace the
 * file's. A file that cannot be read or has the wrong shape is a usage error naming where.
 */
export async function readPolicyTestFile(path: string): Promise<PolicyTestFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = fileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? '' : issue.path.map(String).join('.');
    throw new UsageError(`${path}: ${where === '' ? '' : `${where}: `}${issue?.message ?? 'not a policy test file'}`);
  }
  const base = dirname(resolve(path));
  const settingsOf = (settings: string | Record<string, unknown> | undefined) =>
    settings === undefined
      ? undefined
      : typeof settings === 'string'
        ? resolve(base, settings)
        : JSON.stringify(settings);
  const file = parsed.data;
  return {
    cwd: file.cwd === undefined ? undefined : resolve(base, file.cwd),
    cases: file.cases.map((each) => ({
      name: each.name ?? defaultName(each.tool, each.input),
      tool: each.tool,
      input: each.input,
      expect: each.expect,
      mode: each.mode ?? file.mode,
      settings: settingsOf(each.settings ?? file.settings),
    })),
  };
}
