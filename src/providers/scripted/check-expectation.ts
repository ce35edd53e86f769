import type { ScriptExpectation } from './scripted-turn.js';

/** One tool result as the expectation check sees it. */
export type ResultView = { readonly id: string; readonly isError: boolean; readonly text: string };

/** What the expectation check reads from a request, whatever its wire format. */
export type RequestView = {
  /** Names in `tools[]`, in order. */
  readonly toolNames: readonly string[];
  /** Tool results of the last user message (the answer to the previous assistant turn). */
  readonly lastResults: readonly ResultView[];
  /** Every text a user message of the request carries: plain text and tool result content. */
  readonly userTexts: readonly string[];
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: unknown) => (isRecord(block) && typeof block['text'] === 'string' ? block['text'] : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/**
 * Reads a request in the Messages format (a `ModelRequest` or the body sent to `/v1/messages`):
 * `messages` with Anthropic blocks, `tools` with `name`. Unknown shapes count as empty.
 */
export function viewOfMessagesRequest(request: unknown): RequestView {
  const record = isRecord(request) ? request : {};
  const tools = Array.isArray(record['tools']) ? record['tools'] : [];
  const toolNames = tools.flatMap((tool: unknown) =>
    isRecord(tool) && typeof tool['name'] === 'string' ? [tool['name']] : [],
  );
  const messages = Array.isArray(record['messages']) ? record['messages'] : [];
  const userTexts: string[] = [];
  let lastResults: ResultView[] = [];
  for (const message of messages) {
    if (!isRecord(message) || message['role'] !== 'user') continue;
    const content = message['content'];
    const results: ResultView[] = [];
    if (typeof content === 'string') userTexts.push(content);
    else if (Array.isArray(content)) {
      for (const block of content) {
        if (!isRecord(block)) continue;
        if (block['type'] === 'text' && typeof block['text'] === 'string') userTexts.push(block['text']);
        if (block['type'] === 'tool_result' && typeof block['tool_use_id'] === 'string') {
          const text = textOf(block['content']);
          userTexts.push(text);
          results.push({ id: block['tool_use_id'], isError: block['is_error'] === true, text });
        }
      }
    }
    lastResults = results;
  }
  return { toolNames, lastResults, userTexts };
}

function list(values: Iterable<string>): string {
  const items = [...values];
  return items.length === 0 ? '(none)' : items.map((value) => JSON.stringify(value)).join(', ');
}

/**
 * Compares a request with a turn's expectation. Returns one line per difference, written so the
 * reader sees what was expected and what came; an empty list means the request matches.
 */
export function checkExpectation(expect: ScriptExpectation, view: RequestView): string[] {
  const differences: string[] = [];
  const resultIds = view.lastResults.map((result) => result.id);
  if (expect.tool_results !== undefined) {
    const wanted = new Set(expect.tool_results);
    const got = new Set(resultIds);
    const missing = [...wanted].filter((id) => !got.has(id));
    const extra = [...got].filter((id) => !wanted.has(id));
    if (missing.length > 0 || extra.length > 0) {
      differences.push(
        `tool_result ids: expected ${list(wanted)}, got ${list(got)}` +
          (missing.length > 0 ? `; missing ${list(missing)}` : '') +
          (extra.length > 0 ? `; unexpected ${list(extra)}` : ''),
      );
    }
  }
  if (expect.errors !== undefined) {
    const errors = new Set(expect.errors);
    for (const id of errors) {
      const result = view.lastResults.find((candidate) => candidate.id === id);
      if (result === undefined)
        differences.push(`tool_result ${JSON.stringify(id)} should be an error result but is absent`);
      else if (!result.isError) {
        differences.push(
          `tool_result ${JSON.stringify(id)} should have is_error true but does not: ${excerpt(result.text)}`,
        );
      }
    }
    for (const result of view.lastResults) {
      if (result.isError && !errors.has(result.id)) {
        differences.push(
          `tool_result ${JSON.stringify(result.id)} should not be an error but has is_error true: ${excerpt(result.text)}`,
        );
      }
    }
  }
  for (const text of expect.includes ?? []) {
    if (!view.userTexts.some((candidate) => candidate.includes(text))) {
      differences.push(`text ${JSON.stringify(text)} is in no user message or tool result`);
    }
  }
  for (const text of expect.excludes ?? []) {
    if (view.userTexts.some((candidate) => candidate.includes(text))) {
      differences.push(`text ${JSON.stringify(text)} should not be in the request but is`);
    }
  }
  const toolNames = new Set(view.toolNames);
  const missingTools = (expect.tools ?? []).filter((name) => !toolNames.has(name));
  if (missingTools.length > 0) {
    differences.push(`tools[] lacks ${list(missingTools)}; it has ${list(view.toolNames)}`);
  }
  const forbidden = (expect.no_tools ?? []).filter((name) => toolNames.has(name));
  if (forbidden.length > 0) differences.push(`tools[] should not contain ${list(forbidden)} but does`);
  return differences;
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > 120 ? `${flat.slice(0, 117)}...` : flat);
}

/** The error message for a mismatch: which turn, then one difference per line. */
export function describeMismatch(options: { readonly label: string; readonly differences: readonly string[] }): string {
  return `the request for ${options.label} does not match its expect:\n${options.differences.map((line) => `- ${line}`).join('\n')}`;
}
