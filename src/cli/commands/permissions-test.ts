import type { ExplainedDecision } from '../../permissions/explain-decision.js';
import { UsageError } from '../args.js';
import type { CommandIo } from '../headless.js';
import { parseCommandOperands } from './command-args.js';
import { explainWithSettings } from './permissions-explain.js';
import { readPolicyTestFile, type PolicyCase } from './policy-cases.js';

const USAGE = 'Usage: toolplane permissions test FILE [--format text|tap|junit] [--trust-project]';

/** One case's outcome. */
type CaseResult = { readonly policyCase: PolicyCase; readonly got: ExplainedDecision };

/** A case's name on one line: control characters (a newline could forge a TAP line) become spaces. */
const oneLine = (name: string) => name.replace(/[\u0000-\u001f\u007f]/g, ' ');

const passed = (result: CaseResult) => result.got.decision === result.policyCase.expect;

/** Why a case failed, in one line: what was expected, what the plane decided, and the rule or check that decided. */
function failureLine(result: CaseResult): string {
  const { got, policyCase } = result;
  // The reason names the rule and its file already, when a rule decided; the rule is added only where it does not.
  const rule =
    got.rule === null || got.reason.includes(got.rule)
      ? ''
      : ` (rule ${got.rule}${got.source === null ? '' : ` from ${got.source}`})`;
  return `expected ${policyCase.expect}, got ${got.decision}: ${got.reason}${rule}`;
}

function text(results: readonly CaseResult[]): string {
  const lines = results.map((result) =>
    passed(result)
      ? `✔ ${oneLine(result.policyCase.name)}`
      : `✘ ${oneLine(result.policyCase.name)}\n    ${failureLine(result)}`,
  );
  const failed = results.filter((result) => !passed(result)).length;
  return `${lines.join('\n')}\n\n${results.length - failed} passed, ${failed} failed\n`;
}

/** TAP 13: one `ok`/`not ok` line per case, a YAML block with the decision for each failure. */
function tap(results: readonly CaseResult[]): string {
  const lines = ['TAP version 13', `1..${results.length}`];
  results.forEach((result, index) => {
    const name = oneLine(result.policyCase.name).replace(/#/g, '\\#');
    if (passed(result)) {
      lines.push(`ok ${index + 1} - ${name}`);
      return;
    }
    lines.push(
      `not ok ${index + 1} - ${name}`,
      '  ---',
      `  expected: ${result.policyCase.expect}`,
      `  got: ${result.got.decision}`,
      `  reason: ${JSON.stringify(result.got.reason)}`,
      ...(result.got.rule === null ? [] : [`  rule: ${JSON.stringify(result.got.rule)}`]),
      ...(result.got.source === null ? [] : [`  source: ${JSON.stringify(result.got.source)}`]),
      '  ...',
    );
  });
  return `${lines.join('\n')}\n`;
}

/** Characters XML 1.0 cannot hold even escaped: lone surrogates, U+FFFE and U+FFFF. */
const NOT_XML = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/g;

const escapeXml = (value: string) =>
  oneLine(value)
    .replace(NOT_XML, '\uFFFD')
    .replace(/[<>&"']/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[char]!);

/** JUnit XML, as CI systems read it: one test case per policy case, a failure element with the decision. */
function junit(results: readonly CaseResult[]): string {
  const failed = results.filter((result) => !passed(result)).length;
  const cases = results.map((result) => {
    const open = `    <testcase classname="permissions" name="${escapeXml(result.policyCase.name)}"`;
    if (passed(result)) return `${open}/>`;
    const line = escapeXml(failureLine(result));
    return `${open}>\n      <failure message="${line}" type="${escapeXml(result.got.decision)}">${line}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${results.length}" failures="${failed}">`,
    `  <testsuite name="toolplane permissions" tests="${results.length}" failures="${failed}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

const FORMATS = { text, tap, junit } as const;

/**
 * `toolplane permissions test FILE`: decides every case of a policy test file as a headless run
 * in its folder would (the folder's settings, the case's `settings` and `mode` added as
 * `--settings` and `--permission-mode` are), without running anything, and prints each failure
 * with the rule or check that decided. Exit code 0 when every case gets its expected decision, 1
 * when one does not, 2 for bad arguments, a malformed test file or a settings file that cannot be read.
 */
export async function runPermissionsTest(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, operands: files } = parseCommandOperands(argv, {
    format: { type: 'string' },
    'trust-project': { type: 'boolean' },
  });
  if (files.length !== 1) throw new UsageError(`give one policy test file.\n${USAGE}`);
  const format = (values.format ?? 'text') as keyof typeof FORMATS;
  if (!(format in FORMATS)) throw new UsageError(`--format must be text, tap or junit.\n${USAGE}`);
  const file = await readPolicyTestFile(files[0]!);
  const results: CaseResult[] = [];
  const warned = new Set<string>();
  for (const policyCase of file.cases) {
    const decided = await explainWithSettings(
      {
        cwd: file.cwd ?? io.cwd,
        io,
        trustProject: values['trust-project'] ?? false,
        settings: policyCase.settings,
        mode: policyCase.mode,
      },
      { tool: policyCase.tool, input: policyCase.input },
    ).catch((error: unknown) => error as Error);
    // A broken setup is not a failed case: exit 2, as for a malformed test file.
    if (decided instanceof Error) {
      io.stderr.write(`toolplane: case ${oneLine(policyCase.name)}: ${decided.message}\n`);
      return 2;
    }
    const { settings, explained } = decided;
    for (const warning of settings.warnings) {
      const line = `warning: ${warning.file ? `${warning.file}: ` : ''}${warning.message}`;
      if (!warned.has(line)) io.stderr.write(`${line}\n`);
      warned.add(line);
    }
    results.push({ policyCase, got: explained });
  }
  io.stdout.write(FORMATS[format](results));
  return results.every(passed) ? 0 : 1;
}
