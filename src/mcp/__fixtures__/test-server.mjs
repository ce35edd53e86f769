// A small MCP server for toolplane's tests, run by `node` over stdio (or over HTTP on 127.0.0.1
// with TEST_SERVER_TRANSPORT=http). Its behaviour is set by environment variables so a test can
// make it slow to start, crash, refuse to start again, or change its tool list. Plain
// JavaScript: it runs without a build.
import { randomUUID } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const env = process.env;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

if (env.TEST_SERVER_FAIL_MESSAGE) {
  process.stderr.write(`${env.TEST_SERVER_FAIL_MESSAGE}\n`);
  process.exit(2);
}

if (env.TEST_SERVER_LAUNCH_FILE) {
  appendFileSync(env.TEST_SERVER_LAUNCH_FILE, `${process.pid}\n`);
  const launches = readFileSync(env.TEST_SERVER_LAUNCH_FILE, 'utf8').trim().split('\n').length;
  const max = Number(env.TEST_SERVER_MAX_LAUNCHES ?? 'Infinity');
  if (launches > max) {
    process.stderr.write(`refusing launch ${launches}: only ${max} allowed\n`);
    process.exit(3);
  }
}

if (env.TEST_SERVER_START_DELAY_MS) await sleep(Number(env.TEST_SERVER_START_DELAY_MS));

let calls = 0;
let cancellations = 0;
const crashAfter = env.TEST_SERVER_CRASH_AFTER_CALLS === undefined ? undefined : Number(env.TEST_SERVER_CRASH_AFTER_CALLS);
// Tools without an input schema get only `extra`; the handler receives it last either way.
const counted = (handler) => async (...params) => {
  calls += 1;
  const result = await handler(...params);
  if (crashAfter !== undefined && calls >= crashAfter) {
    setTimeout(() => {
      process.stderr.write(`crashing after ${calls} calls\n`);
      process.exit(1);
    }, 20);
  }
  return result;
};
const text = (value) => ({ content: [{ type: 'text', text: value }] });

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const contents = {
  text: () => text('plain text'),
  image: () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }),
  image_tiff: () => ({ content: [{ type: 'image', data: 'AAAA', mimeType: 'image/tiff' }] }),
  audio: () => ({ content: [{ type: 'audio', data: 'AAAAAAAA', mimeType: 'audio/wav' }] }),
  resource_link: () => ({ content: [{ type: 'resource_link', uri: 'test://doc/1', name: 'doc one', mimeType: 'text/plain', description: 'the first doc' }] }),
  resource_text: () => ({ content: [{ type: 'resource', resource: { uri: 'test://doc/1', mimeType: 'text/plain', text: 'doc body' } }] }),
  resource_blob: () => ({ content: [{ type: 'resource', resource: { uri: 'test://bin/1', mimeType: 'application/octet-stream', blob: 'AAAA' } }] }),
  resource_pdf: () => ({ content: [{ type: 'resource', resource: { uri: 'test://doc.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' } }] }),
  structured: () => ({ content: [], structuredContent: { temperature: 21, unit: 'C' } }),
  structured_with_text: () => ({ content: [{ type: 'text', text: '21 C' }], structuredContent: { temperature: 21 } }),
  error: () => ({ content: [{ type: 'text', text: 'the thing failed' }], isError: true }),
  mixed: () => ({ content: [{ type: 'text', text: 'before' }, { type: 'image', data: PNG, mimeType: 'image/png' }] }),
  empty: () => ({ content: [] }),
};

/** One MCP server with every test tool; HTTP builds one per session. */
function buildServer() {
  const server = new McpServer({ name: 'toolplane-test-server', version: '1.0.0' }, { capabilities: { tools: { listChanged: true }, resources: {} }, instructions: 'Tools for testing toolplane.' });

  const echo = server.registerTool(
    'echo',
    { description: 'Echoes its text.', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    counted(async ({ text: value }) => text(value)),
  );
  server.registerTool('delete_everything', { description: 'Pretends to delete everything.', annotations: { destructiveHint: true } }, counted(async () => text('nothing deleted')));
  server.registerTool('env', { description: 'Reports its environment as JSON.' }, counted(async () => text(JSON.stringify(process.env))));
  server.registerTool('pid', { description: 'Reports its process id.' }, counted(async () => text(String(process.pid))));
  server.registerTool(
    'content',
    { description: 'Returns content of the given kind.', inputSchema: { kind: z.enum(Object.keys(contents)) } },
    counted(async ({ kind }) => contents[kind]()),
  );
  server.registerTool(
    'slow',
    { description: 'Reports progress, then waits until cancelled (or 10 s).' },
    counted(async (...params) => {
      const extra = params.at(-1);
      const token = extra._meta?.progressToken;
      if (token !== undefined) {
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 2, message: 'started' } });
      }
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 10_000);
        extra.signal.addEventListener('abort', () => {
          cancellations += 1;
          clearTimeout(timer);
          resolve();
        });
      });
      return text('finished');
    }),
  );
  server.registerTool('crash', { description: 'Exits at once, without answering.' }, async () => {
    process.stderr.write('crashing during a call\n');
    process.exit(1);
  });
  server.registerTool('cancellations', { description: 'How many calls were cancelled.' }, counted(async () => text(String(cancellations))));
  const added = new Map();
  server.registerTool(
    'add_tool',
    { description: 'Adds a tool (sends list_changed).', inputSchema: { name: z.string() } },
    counted(async ({ name }) => {
      added.set(name, server.registerTool(name, { description: `Added tool ${name}.` }, async () => text(`${name} ran`)));
      return text(`added ${name}`);
    }),
  );
  server.registerTool(
    'remove_tool',
    { description: 'Removes an added tool (sends list_changed).', inputSchema: { name: z.string() } },
    counted(async ({ name }) => {
      added.get(name)?.remove();
      added.delete(name);
      return text(`removed ${name}`);
    }),
  );
  server.registerTool(
    'change_echo',
    { description: "Changes echo's description (sends list_changed).", inputSchema: { description: z.string() } },
    counted(async ({ description }) => {
      echo.update({ description });
      return text('changed');
    }),
  );
  server.registerTool(
    'break_list',
    {
      description: 'Makes tools/list fail or list echo twice (then sends list_changed), or makes resources/list fail.',
      inputSchema: { mode: z.enum(['tools-error', 'tools-duplicate', 'resources-error']) },
    },
    counted(async ({ mode }) => {
      if (mode === 'resources-error') {
        server.server._requestHandlers.set('resources/list', async () => {
          throw new Error('resource list unavailable');
        });
        return text('resources/list now fails');
      }
      const original = server.server._requestHandlers.get('tools/list');
      server.server._requestHandlers.set('tools/list', async (request, extra) => {
        if (mode === 'tools-error') throw new Error('tool list unavailable');
        const listed = await original(request, extra);
        return { ...listed, tools: [...listed.tools, listed.tools.find((tool) => tool.name === 'echo')] };
      });
      server.sendToolListChanged();
      return text(`tools/list now: ${mode}`);
    }),
  );
  if (env.TEST_SERVER_COLLIDING_TOOLS) {
    server.registerTool('a.b', { description: 'Dotted name.' }, async () => text('a.b ran'));
    server.registerTool('a_b', { description: 'Underscored name.' }, async () => text('a_b ran'));
  }
  server.registerResource('first doc', 'test://doc/1', { mimeType: 'text/plain', description: 'the first doc' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'doc body' }],
  }));
  return server;
}

const transport = env.TEST_SERVER_TRANSPORT ?? 'stdio';
if (transport === 'stdio') {
  await buildServer().connect(new StdioServerTransport());
} else {
  // Streamable HTTP at /mcp and HTTP+SSE at /sse + /messages on 127.0.0.1; the port is printed on stdout.
  const streamable = new Map();
  const sse = new Map();
  const handle = async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/sse' && req.method === 'GET') {
      const session = new SSEServerTransport('/messages', res);
      sse.set(session.sessionId, session);
      await buildServer().connect(session);
      return;
    }
    if (url.pathname === '/messages') {
      const session = sse.get(url.searchParams.get('sessionId') ?? '');
      if (session === undefined) res.writeHead(404).end();
      else await session.handlePostMessage(req, res);
      return;
    }
    const id = req.headers['mcp-session-id'];
    let session = typeof id === 'string' ? streamable.get(id) : undefined;
    if (session === undefined) {
      const created = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (newId) => streamable.set(newId, created) });
      await buildServer().connect(created);
      session = created;
    }
    await session.handleRequest(req, res);
  };
  const http = createServer((req, res) => {
    handle(req, res).catch((error) => {
      process.stderr.write(`${error}\n`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  http.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${http.address().port}\n`));
}


if (env.TEST_SERVER_CRASH_AFTER_MS) {
  setTimeout(() => {
    process.stderr.write('crashing on a timer\n');
    process.exit(1);
  }, Number(env.TEST_SERVER_CRASH_AFTER_MS));
}
