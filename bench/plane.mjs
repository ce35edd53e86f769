// The plane's own overhead (issue: the tool-call pipeline): a no-op tool through the full gate
// chain with 50 permission rules that are all evaluated for it (none matching) and 2 in-process
// hooks; and a batch of 10 concurrency-safe no-op calls. Run after `npm run build`.
import { assembleToolPool, runToolUses } from '../dist/index.js';
import { createPermissionEngine } from '../dist/permissions/index.js';
import { createHookGate } from '../dist/hooks/index.js';
import { noopTool } from '../dist/testing/index.js';

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function setup() {
  const rules = [];
  // Input-field rules (deny and ask may match a field): each is tested against the call's `note`.
  for (let i = 0; i < 50; i += 1) {
    rules.push({
      rule: `Noop(note:secret-${i}-*)`,
      behavior: i % 2 === 0 ? 'deny' : 'ask',
      source: 'projectSettings',
      root: '/work',
    });
  }
  const permissions = createPermissionEngine({ rules, cwd: '/work', homeDir: '/root' });
  const hooks = createHookGate({
    projectDir: '/work',
    env: {},
    functionHooks: [
      { event: 'PreToolUse', matcher: 'Noop', name: 'pre', callback: () => undefined },
      { event: 'PostToolUse', matcher: 'Noop', name: 'post', callback: () => undefined },
    ],
  });
  const pool = assembleToolPool({ builtins: [noopTool] });
  return { pool, permissions, hooks, cwd: '/work', sessionId: 'bench' };
}

/** Median over rounds of the mean µs per run of `operation`. */
async function perRunMicros(operation, { rounds = 15, iterations = 2_000 } = {}) {
  for (let i = 0; i < iterations; i += 1) await operation(); // warm-up
  const samples = [];
  for (let round = 0; round < rounds; round += 1) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i += 1) await operation();
    samples.push(Number(process.hrtime.bigint() - start) / 1000 / iterations);
  }
  return Number(median(samples).toFixed(2));
}

export async function run() {
  const options = setup();
  const single = [{ type: 'tool_use', id: 'toolu_1', name: 'Noop', input: { note: 'public' } }];
  const batch = Array.from({ length: 10 }, (_, i) => ({
    type: 'tool_use',
    id: `toolu_${i}`,
    name: 'Noop',
    input: { note: String(i) },
  }));
  // Sanity: the calls really pass the chain (allowed, not denied).
  const check = await runToolUses(single, options);
  if (check.records[0].outcome.status !== 'success')
    throw new Error(`no-op call did not succeed: ${JSON.stringify(check.records[0])}`);
  const oneCall = await perRunMicros(() => runToolUses(single, options));
  const tenCalls = await perRunMicros(() => runToolUses(batch, options), { iterations: 500 });
  return {
    'plane.noop_call_50_rules_2_hooks_us_median': oneCall,
    'plane.batch_10_safe_noop_us_median': tenCalls,
    targets: { noop_call_us: 10, batch_10_us: 100 },
  };
}
