import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AnyTool } from '../../contract/tool.js';
import { initShellParser } from '../bash-parser.js';
import { chainingCases } from './chaining-cases.js';
import { codeOptionCases } from './code-option-cases.js';
import { dataPathCases } from './data-path-cases.js';
import { differentialCases } from './differential-cases.js';
import { evaluatedCodeCases } from './evaluated-code-cases.js';
import { globSpellingCases } from './glob-spelling-cases.js';
import { launcherCases } from './launcher-cases.js';
import { processStateCases } from './process-state-cases.js';
import { corpusTools, createWorkspace, runCase, type CorpusCase, type Workspace } from './corpus-harness.js';
import { modeHookCases } from './mode-hook-cases.js';
import { networkCases } from './network-cases.js';
import { pathCases } from './path-cases.js';
import { readOnlyCases } from './read-only-cases.js';
import { reviewCases } from './review-cases.js';
import { safetyModeCases } from './safety-mode-cases.js';
import { wrapperCases } from './wrapper-cases.js';

const suites: readonly (readonly [string, readonly CorpusCase[]])[] = [
  ['chaining, substitution, redirection', chainingCases],
  ['read-only commands and regression guards', readOnlyCases],
  ['wrappers, env and quoting', wrapperCases],
  ['paths, symlinks, critical and protected paths', pathCases],
  ['network, MCP and trust', networkCases],
  ['hooks, modes and display integrity', modeHookCases],
  ['security review probes', reviewCases],
  ['safety checks in every mode', safetyModeCases],
  ['issue 11.1: code bash evaluates in data', evaluatedCodeCases],
  ['issue 11.2 and 11.8: shell launchers and environment', launcherCases],
  ['issue 11.3: data paths that are not plain operands', dataPathCases],
  ['issue 11.4: options that run code under an allowed prefix', codeOptionCases],
  ['issue 11.5: globs and spellings of denied paths', globSpellingCases],
  ['issue 11.6 and 11.7: process secrets and state across calls', processStateCases],
  ['holes the differential test found', differentialCases],
];

let workspace: Workspace;
let tools: ReadonlyMap<string, AnyTool>;

beforeAll(async () => {
  await initShellParser();
  workspace = createWorkspace();
  tools = corpusTools();
});

afterAll(() => workspace.dispose());

test('the corpus has at least 200 uniquely named cases', () => {
  const names = suites.flatMap(([, cases]) => cases.map((testCase) => testCase.name));
  expect(names.length).toBeGreaterThanOrEqual(200);
  expect(new Set(names).size).toBe(names.length);
});

for (const [title, cases] of suites) {
  describe(title, () => {
    test.each(cases.map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
      const decision = await runCase(testCase, workspace, tools);
      const behavior = decision.behavior === 'passthrough' ? 'ask' : decision.behavior;
      const detail =
        decision.behavior === 'allow' || decision.behavior === 'passthrough' ? decision.reason : decision.message;
      expect({ behavior, unsafe: behavior === 'allow' && testCase.expect !== 'allow', detail }).toMatchObject({
        behavior: testCase.expect,
        unsafe: false,
      });
    });
  });
}
