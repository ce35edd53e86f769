// Decision-ledger benchmark: what recording one call's path costs on the no-op path (the events of
// a call that a rule allowed, with no hook), without the transcript write and with it (one write
// per batch of 10 calls, flushed at the end of each round).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDecisionLedger } from '../dist/session/decision-ledger.js';
import { openTranscript } from '../dist/loop/transcript-writer.js';

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The events one allowed call sends the loop, under fresh ids. */
function callEvents(index) {
  const toolUseId = `toolu_${index}`;
  return [
    { type: 'tool-call-queue', toolUseId, toolName: 'Noop', summary: 'noop' },
    { type: 'tool-call-start', toolUseId, toolName: 'Noop', batch: index },
    {
      type: 'permission-decision',
      toolUseId,
      behavior: 'allow',
      reason: { kind: 'rule', rule: 'Noop', source: 'projectSettings', file: '/work/.claude/settings.json' },
    },
    {
      type: 'tool-call-end',
      durationMs: 0.01,
      record: {
        toolUseId,
        toolName: 'Noop',
        input: {},
        outcome: { status: 'success', isError: false },
        result: { type: 'tool_result', tool_use_id: toolUseId, content: 'ok' },
      },
    },
  ];
}

async function perCallMicros(ledger, { rounds = 9, calls = 20_000, afterRound } = {}) {
  const samples = [];
  for (let round = 0; round < rounds; round += 1) {
    const events = Array.from({ length: calls }, (_, index) => callEvents(round * calls + index));
    const start = process.hrtime.bigint();
    // A batch of 10 calls, then its results: the ledger writes once per batch.
    events.forEach((call, index) => {
      for (const event of call) ledger.observe(event);
      if (index % 10 === 9) ledger.observe({ type: 'tool-results', message: { role: 'user', content: [] } });
    });
    if (afterRound) await afterRound();
    samples.push(Number(process.hrtime.bigint() - start) / 1000 / calls);
  }
  return Number(median(samples).toFixed(3));
}

export async function run() {
  let written = 0;
  const noWrite = await perCallMicros(createDecisionLedger((entries) => (written += entries.length)));
  const base = await mkdtemp(join(tmpdir(), 'toolplane-bench-ledger-'));
  try {
    const transcript = openTranscript({
      id: 'bench',
      cwd: base,
      path: join(base, 'bench.jsonl'),
      resultsDirectory: join(base, 'results'),
      header: { type: 'session', sessionId: 'bench', cwd: base, createdAt: new Date().toISOString() },
    });
    const withWrite = await perCallMicros(
      createDecisionLedger((entries) => transcript.appendEvents(entries)),
      { rounds: 5, calls: 5_000, afterRound: () => transcript.flush() },
    );
    return { ledgerPerCallNoWriteMicros: noWrite, ledgerPerCallWithTranscriptWriteMicros: withWrite, entries: written };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
