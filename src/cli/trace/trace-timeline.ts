import { scaleLinear } from 'd3-scale';
import { escapeHtml } from './escape-html.js';
import type { TraceCall } from './trace-model.js';

const WIDTH = 960;
const LABEL_WIDTH = 200;
const LANE = 16;
const AXIS = 22;

/** A duration for an axis or a row: `850 ms`, `2.4 s`, `3 min 5 s`. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

type Timed = { readonly call: TraceCall; readonly index: number; readonly start: number; readonly end: number };

/**
 * One turn's calls as an SVG timeline: a lane per call, a thin line for the time it waited (queued
 * until it started: approval, hooks, an earlier batch), a bar while it ran, coloured by outcome;
 * calls of one batch (consecutive concurrency-safe calls, free to run side by side) share a band. The scale and its ticks are d3-scale's.
 * Undefined when no call of the turn has times (a transcript without a ledger). `indexOf` gives
 * each call's row number, which the bars link to.
 */
export function renderTimeline(calls: readonly TraceCall[], indexOf: (call: TraceCall) => number): string | undefined {
  const timed: Timed[] = [];
  for (const call of calls) {
    const start = call.queuedAt ?? call.startedAt;
    if (start === undefined || call.endedAt === undefined) continue;
    timed.push({ call, index: indexOf(call), start, end: Math.max(call.endedAt, start) });
  }
  if (timed.length === 0) return undefined;
  const origin = Math.min(...timed.map((each) => each.start));
  const span = Math.max(1, Math.max(...timed.map((each) => each.end)) - origin);
  const x = scaleLinear()
    .domain([0, span])
    .range([LABEL_WIDTH, WIDTH - 10])
    .nice();
  const height = AXIS + timed.length * LANE + 6;
  const parts: string[] = [];
  for (const tick of x.ticks(6)) {
    parts.push(
      `<line class="tick" x1="${x(tick)}" x2="${x(tick)}" y1="${AXIS - 4}" y2="${height}"></line>`,
      // The last label ends at its tick, so the picture's edge does not cut it.
      `<text class="tick-label" x="${x(tick)}" y="${AXIS - 8}" text-anchor="${x(tick) > WIDTH - 40 ? 'end' : 'middle'}">${formatMs(tick)}</text>`,
    );
  }
  // Bands: consecutive lanes of one agent's batch.
  for (let lane = 0; lane < timed.length;) {
    const { call } = timed[lane]!;
    let last = lane;
    while (
      last + 1 < timed.length &&
      call.batch !== undefined &&
      timed[last + 1]!.call.batch === call.batch &&
      timed[last + 1]!.call.step === call.step &&
      timed[last + 1]!.call.agent?.agentId === call.agent?.agentId
    )
      last++;
    if (last > lane) {
      const y = AXIS + lane * LANE;
      parts.push(
        `<rect class="band" x="${LABEL_WIDTH - 4}" y="${y}" width="${WIDTH - LABEL_WIDTH}" height="${(last - lane + 1) * LANE}"><title>batch ${call.batch}: ${last - lane + 1} calls free to run in parallel</title></rect>`,
      );
    }
    lane = last + 1;
  }
  timed.forEach(({ call, index, start, end }, lane) => {
    const y = AXIS + lane * LANE;
    const ran = call.startedAt ?? start;
    const label = `${call.agent === undefined ? '' : '↳ '}${call.tool} ${call.summary}`;
    const title = `${call.tool} ${call.summary}\n${call.status} · ${call.gate}: ${call.why}\n${formatMs(end - ran)} running${ran > start ? `, ${formatMs(ran - start)} waiting` : ''}`;
    parts.push(
      `<a href="#call-${index}" class="lane" data-call="${index}">`,
      `<title>${escapeHtml(title)}</title>`,
      // The whole lane is the link, not only its thin bar.
      `<rect class="hit" x="0" y="${y}" width="${WIDTH}" height="${LANE}"></rect>`,
      `<text class="lane-label" x="4" y="${y + LANE - 4}">${escapeHtml(label.length > 30 ? `${label.slice(0, 29)}…` : label)}</text>`,
      ran > start
        ? `<line class="wait" x1="${x(start - origin)}" x2="${x(ran - origin)}" y1="${y + LANE / 2}" y2="${y + LANE / 2}"></line>`
        : '',
      `<rect class="bar ${call.outcome}" x="${x(ran - origin)}" y="${y + 3}" width="${Math.max(2, x(end - origin) - x(ran - origin))}" height="${LANE - 6}"></rect>`,
      '</a>',
    );
  });
  return `<svg class="timeline" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="timeline of the turn's calls">${parts.join('')}</svg>`;
}
