// A bench-only stand-in for the Messages API: answers each streamed request with the next reply
// of a list, in the real SSE wire format, and records when each request's headers and body
// arrived and when each response finished (wall time, and the process's CPU time). Bodies are counted, never parsed, so the server's own
// work does not overlap the client's.
import { createServer } from 'node:http';

/** CPU time this process has used (all its threads), in ms: the client's work when it shares the process. */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function frame(data) {
  return `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

function blockFrames(block, index) {
  if (block.type === 'text') {
    return [
      frame({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }),
      frame({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } }),
      frame({ type: 'content_block_stop', index }),
    ];
  }
  return [
    frame({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
    }),
    frame({
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
    }),
    frame({ type: 'content_block_stop', index }),
  ];
}

/** The SSE body of one reply: `content` blocks (text or tool_use), stop reason from the last block. */
export function replyFrames(content, number) {
  const toolUse = content.some((block) => block.type === 'tool_use');
  return [
    frame({
      type: 'message_start',
      message: {
        id: `msg_bench_${number}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-bench',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    }),
    ...content.flatMap(blockFrames),
    frame({
      type: 'message_delta',
      delta: { type: 'message_delta', stop_reason: toolUse ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: 5 },
    }),
    frame({ type: 'message_stop' }),
  ].join('');
}

/**
 * Starts the server on 127.0.0.1. `replies` is a list of content arrays; `onBody(bytes, index)`
 * (optional) sees each request's raw body. Returns the base URL, the timings and `close()`.
 */
export async function startAnthropicWireServer({ replies, onBody }) {
  const timings = { headersAt: [], headersCpu: [], bodyAt: [], finishedAt: [], finishedCpu: [], bodyBytes: [] };
  let served = 0;
  const server = createServer((request, response) => {
    const index = served;
    served += 1;
    timings.headersAt[index] = performance.now();
    timings.headersCpu[index] = cpuMs();
    const chunks = [];
    let bytes = 0;
    request.on('data', (chunk) => {
      bytes += chunk.length;
      if (onBody) chunks.push(chunk);
    });
    request.on('end', () => {
      timings.bodyAt[index] = performance.now();
      timings.bodyBytes[index] = bytes;
      onBody?.(Buffer.concat(chunks), index);
      const content = replies[index] ?? [{ type: 'text', text: 'no reply left' }];
      response.on('finish', () => {
        timings.finishedAt[index] = performance.now();
        timings.finishedCpu[index] = cpuMs();
      });
      response.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': `req_bench_${index}` });
      response.end(replyFrames(content, index));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${server.address().port}`,
    timings,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
