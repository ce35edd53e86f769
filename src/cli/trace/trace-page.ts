import { randomBytes } from 'node:crypto';
import { escapeHtml } from './escape-html.js';
import type { TraceCall, TraceModel } from './trace-model.js';
import { formatMs, renderTimeline } from './trace-timeline.js';

const STYLE = `
:root { color-scheme: light dark; --ok: #2f9e44; --error: #e8590c; --denied: #c92a2a; --refused: #862e9c; --stopped: #868e96;
  --line: #8884; --band: #4c6ef51a; --muted: #868e96; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5rem auto; max-width: 1000px; padding: 0 1rem; }
h1 { font-size: 1.3rem; margin: 0 0 .25rem; } h2 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
.meta, .muted { color: var(--muted); } .counts span { margin-right: 1rem; }
.filters { position: sticky; top: 0; padding: .5rem 0; background: Canvas; border-bottom: 1px solid var(--line); z-index: 1; }
.filters label { margin-right: 1rem; }
.prompt { white-space: pre-wrap; border-left: 3px solid var(--line); padding-left: .6rem; margin: .25rem 0 .75rem; }
svg.timeline { display: block; max-width: 100%; height: auto; margin-bottom: .75rem; }
.tick { stroke: var(--line); } .tick-label, .lane-label { font: 11px system-ui, sans-serif; fill: currentColor; }
.band { fill: var(--band); } .hit { fill: transparent; } .lane:hover .hit { fill: var(--line); } .wait { stroke: var(--muted); stroke-dasharray: 3 2; }
.bar.ok { fill: var(--ok); } .bar.error { fill: var(--error); } .bar.denied { fill: var(--denied); }
.bar.refused { fill: var(--refused); } .bar.stopped { fill: var(--stopped); } .lane.dim { opacity: .15; }
details.call { border-bottom: 1px solid var(--line); }
details.call > summary { display: grid; grid-template-columns: 3rem 7rem 1fr 7rem 5rem 5rem; gap: .5rem; padding: .3rem 0; cursor: pointer; }
details.call > summary > span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.status { font-weight: 600; } .ok .status { color: var(--ok); } .error .status { color: var(--error); }
.denied .status { color: var(--denied); } .refused .status { color: var(--refused); } .stopped .status { color: var(--stopped); }
.why { grid-column: 3 / -1; color: var(--muted); white-space: normal !important; }
dl { display: grid; grid-template-columns: 9rem 1fr; gap: .2rem .75rem; margin: .5rem 0 .5rem 3.5rem; }
dt { color: var(--muted); } dd { margin: 0; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 24rem; overflow: auto; padding: .5rem; border: 1px solid var(--line); margin: 0; }
`;

// Filters and row expansion; the page works without it, all rows shown.
const SCRIPT = `
const show = document.getElementById('show');
const tool = document.getElementById('tool');
const shown = document.getElementById('shown');
const matches = (row) => {
  const kind = show.value;
  const byKind = kind === 'all' || (kind === 'denied' && row.dataset.outcome === 'denied') ||
    (kind === 'asked' && row.dataset.asked === 'true') ||
    (kind === 'errors' && (row.dataset.outcome === 'error' || row.dataset.outcome === 'refused'));
  return byKind && (tool.value === '' || row.dataset.tool === tool.value);
};
const apply = () => {
  let count = 0;
  for (const row of document.querySelectorAll('details.call')) {
    const visible = matches(row);
    row.hidden = !visible;
    if (visible) count++;
    for (const lane of document.querySelectorAll('.lane[data-call="' + row.dataset.index + '"]')) lane.classList.toggle('dim', !visible);
  }
  shown.textContent = String(count);
};
const openTarget = () => {
  const target = location.hash === '' ? null : document.getElementById(location.hash.slice(1));
  if (target instanceof HTMLDetailsElement) target.open = true;
};
show.addEventListener('change', apply);
tool.addEventListener('change', apply);
window.addEventListener('hashchange', openTarget);
apply();
openTarget();
`;

function field(label: string, value: string | undefined): string {
  return value === undefined || value === '' ? '' : `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

function timeOf(epochMs: number | undefined): string | undefined {
  return epochMs === undefined ? undefined : new Date(epochMs).toISOString().slice(11, 23);
}

function sizeOf(chars: number | undefined): string {
  if (chars === undefined) return '';
  return chars < 10_000 ? `${chars} ch` : `${(chars / 1000).toFixed(0)}k ch`;
}

function callRow(call: TraceCall, index: number): string {
  const waited =
    call.queuedAt !== undefined && call.startedAt !== undefined && call.startedAt > call.queuedAt
      ? formatMs(call.startedAt - call.queuedAt)
      : undefined;
  const hooks = call.hooks
    .map((hook) => `${hook.event} ${hook.hook}: ${hook.status}${hook.said ? ` (${hook.said})` : ''}, ${hook.ms} ms`)
    .join('\n');
  const details = [
    field('call id', call.toolUseId),
    field(
      'agent',
      call.agent === undefined ? undefined : `${call.agent.agentId}, started by ${call.agent.parentToolUseId}`,
    ),
    field(
      'batch',
      call.batch === undefined
        ? undefined
        : `${call.step === undefined ? '' : `model response ${call.step}, `}batch ${call.batch}`,
    ),
    field('queued / started / ended', [call.queuedAt, call.startedAt, call.endedAt].map(timeOf).join(' / ')),
    field('waited', waited),
    field('decided by', `${call.gate}: ${call.why}`),
    field('asked', call.asked ? 'yes' : undefined),
    field('hooks', hooks),
    field('sandbox', call.sandbox),
    field('message', call.message),
    field('result', `${call.result.chars ?? '?'} characters${call.result.isError ? ', an error' : ''}`),
    field('saved to', call.result.savedTo),
  ].join('');
  const input =
    call.input === undefined
      ? '<p class="muted">input not recorded</p>'
      : `<pre class="input">${escapeHtml(call.input)}</pre>`;
  const result =
    call.result.preview === undefined
      ? ''
      : `<h3>Result</h3><pre class="result">${escapeHtml(call.result.preview)}</pre>`;
  return `<details class="call ${call.outcome}" id="call-${index}" data-index="${index}" data-id="${escapeHtml(call.toolUseId)}" data-outcome="${call.outcome}" data-tool="${escapeHtml(call.tool)}" data-asked="${call.asked}">
<summary><span>#${index + 1}</span><span class="tool">${escapeHtml(call.agent === undefined ? call.tool : `↳ ${call.tool}`)}</span><span class="summary">${escapeHtml(call.summary)}</span><span class="status">${escapeHtml(call.status)}</span><span>${call.durationMs === undefined ? '' : formatMs(call.durationMs)}</span><span>${sizeOf(call.result.chars)}</span><span class="why"><span class="gate">${escapeHtml(call.gate)}</span>: ${escapeHtml(call.why)}</span></summary>
<dl>${details}</dl><h3>Input</h3>${input}${result}
</details>`;
}

/**
 * The trace page of a session: one self-contained HTML file (styles and script inline, nothing
 * fetched; a Content-Security-Policy allows only its own script, by nonce, so text from the
 * transcript can never run). A header with counts, filters (denied, asked, errors, by tool), and per
 * turn the prompt, a timeline and one expandable row per call.
 */
export function renderTracePage(model: TraceModel): string {
  const nonce = randomBytes(16).toString('base64');
  const calls = model.turns.flatMap((turn) => turn.calls);
  const index = new Map(calls.map((call, position) => [call, position]));
  const count = (test: (call: TraceCall) => boolean) => calls.filter(test).length;
  const tools = [...new Set(calls.map((call) => call.tool))].sort();
  const turns = model.turns
    .map((turn, number) => {
      const timeline = renderTimeline(turn.calls, (call) => index.get(call)!);
      return `<section class="turn"><h2>Turn ${number + 1}${turn.at ? ` <span class="muted">${escapeHtml(turn.at)}</span>` : ''}</h2>
<p class="prompt">${escapeHtml(turn.prompt.length > 2000 ? `${turn.prompt.slice(0, 2000)}…` : turn.prompt)}</p>
${timeline ?? ''}${turn.calls.map((call) => callRow(call, index.get(call)!)).join('\n')}</section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolplane trace ${escapeHtml(model.sessionId)}</title>
<style nonce="${nonce}">${STYLE}</style></head>
<body>
<h1>Session ${escapeHtml(model.sessionId)}</h1>
<p class="meta">${escapeHtml(model.cwd)}${model.createdAt ? ` · started ${escapeHtml(model.createdAt)}` : ''}${model.hasLedger ? '' : ' · this transcript has no decision ledger: only what ran is known'}${model.skippedLines > 0 ? ` · ${plural(model.skippedLines, 'unreadable line')} skipped` : ''}</p>
<p class="counts"><span id="count-calls">${plural(calls.length, 'call')}</span><span id="count-denied">${count((call) => call.outcome === 'denied')} denied</span><span id="count-asked">${count((call) => call.asked)} asked</span><span id="count-errors">${plural(
    count((call) => call.outcome === 'error' || call.outcome === 'refused'),
    'error',
  )}</span></p>
<div class="filters"><label>Show <select id="show"><option value="all">all calls</option><option value="denied">denied</option><option value="asked">asked</option><option value="errors">errors</option></select></label>
<label>Tool <select id="tool"><option value="">any</option>${tools.map((tool) => `<option value="${escapeHtml(tool)}">${escapeHtml(tool)}</option>`).join('')}</select></label>
<span class="muted"><span id="shown">${calls.length}</span> shown</span></div>
${turns}
<script nonce="${nonce}">${SCRIPT}</script>
</body></html>
`;
}
