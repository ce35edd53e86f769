// Permission engine benchmark: the decision time for a 20-part Bash compound command against 100
// rules (target: under 1 ms median), and preCheck + decide for a no-op tool with 50 rules none of
// which names it (the plane's per-call overhead). Run after `npm run build`.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { defineTool } from '../dist/contract/define-tool.js';
import { createServices } from '../dist/contract/services.js';
import { jsonSchema } from '../dist/contract/tool.js';
import { Language, Parser } from 'web-tree-sitter';
import { createPermissionEngine, initShellParser } from '../dist/permissions/index.js';

const round = (value, digits = 2) => Number(value.toFixed(digits));

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Times `run` in batches of `batch` calls; returns the median time of one call in µs. */
async function timeCall(run, { batches = 41, batch = 50 } = {}) {
  for (let index = 0; index < batch * 5; index += 1) await run();
  const samples = [];
  for (let round = 0; round < batches; round += 1) {
    const start = process.hrtime.bigint();
    for (let index = 0; index < batch; index += 1) await run();
    samples.push(Number(process.hrtime.bigint() - start) / 1000 / batch);
  }
  return median(samples);
}

function subjectFor(tool, input, cwd) {
  return {
    tool,
    input,
    toolUseId: 'toolu_bench',
    context: {
      toolUseId: 'toolu_bench',
      signal: new AbortController().signal,
      cwd,
      sessionId: 'bench',
      agentId: 'main',
      permissionMode: 'default',
      services: createServices(),
    },
  };
}

const call = () => Promise.resolve('');

export async function run() {
  await initShellParser();
  const root = mkdtempSync(path.join(tmpdir(), 'toolplane-bench-permissions-'));
  try {
    const cwd = path.join(root, 'project');
    mkdirSync(path.join(cwd, 'src'), { recursive: true });
    const entry = (behavior, rule) => ({ rule, behavior, source: 'projectSettings', root: cwd });

    const bashRules = [];
    for (let index = 0; index < 40; index += 1) bashRules.push(entry('allow', `Bash(tool${index} run:*)`));
    for (let index = 0; index < 30; index += 1) bashRules.push(entry('deny', `Bash(danger${index} *)`));
    for (let index = 0; index < 10; index += 1) bashRules.push(entry('ask', `Bash(careful${index} *)`));
    for (let index = 0; index < 10; index += 1) bashRules.push(entry('deny', `Read(secret${index}/**)`));
    for (let index = 0; index < 10; index += 1) bashRules.push(entry('allow', `Edit(src/part${index}/**)`));
    const parts = [];
    for (let index = 0; index < 20; index += 1) {
      parts.push(
        index % 4 === 0
          ? `git log --oneline -n ${index}`
          : index % 4 === 1
            ? `tool${index} run --flag "arg ${index}"`
            : index % 4 === 2
              ? `grep -n needle src/file${index}.ts`
              : `echo part${index}`,
      );
    }
    const command = parts.join(' && ');
    const bash = defineTool({ name: 'Bash', inputSchema: jsonSchema({ type: 'object' }), prompt: '', call });
    const bashEngine = createPermissionEngine({ rules: bashRules, cwd, homeDir: root });
    const bashSubject = subjectFor(bash, { command }, cwd);
    const bashDecision = bashEngine.decide(bashSubject);
    // The engine caches the parse of a command it saw; a fresh command each time measures the parse too.
    let counter = 0;
    const freshSubject = () => subjectFor(bash, { command: `${command} && echo ${(counter += 1)}` }, cwd);
    const bashCachedUs = await timeCall(() => {
      bashEngine.preCheck(bashSubject);
      return bashEngine.decide(bashSubject);
    });
    const bashFreshUs = await timeCall(() => {
      const subject = freshSubject();
      bashEngine.preCheck(subject);
      return bashEngine.decide(subject);
    });

    // The grammar's own parse time for the same command, for scale (the engine's floor).
    const require = createRequire(import.meta.url);
    const parser = new Parser();
    parser.setLanguage(await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm')));
    const parseOnlyUs = await timeCall(() => {
      parser.parse(`${command} && echo ${(counter += 1)}`)?.delete();
    });
    parser.delete();

    const noOpRules = [];
    for (let index = 0; index < 50; index += 1) {
      const behavior = index % 3 === 0 ? 'deny' : index % 3 === 1 ? 'ask' : 'allow';
      noOpRules.push(entry(behavior, index % 2 === 0 ? `Tool${index}` : `Bash(cmd${index} *)`));
    }
    const noOp = defineTool({ name: 'NoOp', inputSchema: jsonSchema({ type: 'object' }), prompt: '', call });
    const noOpEngine = createPermissionEngine({ rules: noOpRules, cwd, homeDir: root, mode: 'bypassPermissions' });
    const noOpSubject = subjectFor(noOp, {}, cwd);
    let sink = 0;
    const noOpUs = await timeCall(
      () => {
        if (noOpEngine.preCheck(noOpSubject) === undefined) sink += 1;
        const decision = noOpEngine.decide(noOpSubject);
        if (decision.behavior === 'allow') sink += 1;
      },
      { batches: 41, batch: 2000 },
    );
    return {
      bash20PartsRules100DecisionBehavior: bashDecision.behavior,
      bash20PartsRules100MedianUs: round(bashFreshUs),
      bash20PartsRules100CachedParseMedianUs: round(bashCachedUs),
      bash20PartsTargetUs: 1000,
      bash20PartsTreeSitterParseOnlyMedianUs: round(parseOnlyUs),
      bash20PartsDecisionOverParseRatio: round(bashFreshUs / parseOnlyUs),
      loadAverage1m: round(loadavg()[0] ?? 0),
      noOpTool50RulesPreCheckPlusDecideMedianUs: round(noOpUs, 3),
      noOpIterations: sink,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
