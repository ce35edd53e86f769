import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelProvider, ModelStreamEvent } from '../../contract/provider.js';
import { createServices, type ServiceRegistry } from '../../contract/services.js';
import type { ToolCallContext } from '../../contract/tool.js';
import { WEB_FETCH_PROMPT_APPLIER, createModelPromptApplier } from './prompt-applier.js';
import { privateHostsFromRules } from './private-hosts-from-rules.js';
import { createWebFetchTool, webFetchInputSchema, type WebFetchToolOptions } from './web-fetch-tool.js';
import { createApiToolCache } from '../../schema/to-api-tool.js';

const run = promisify(execFile);

let folder: string;
let cert: string;
let server: Server;
let origin: string;
let port: number;
let counted = 0;

const HTML = `<!doctype html><html><head><title>Docs</title><style>p { color: red }</style></head>
<body><h1>Install</h1><p>Run <code>npm install toolplane</code> to <b>install</b>.</p>
<script>alert('never')</script><ul><li>fast</li><li>safe</li></ul></body></html>`;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'toolplane-webfetch-'));
  const keyFile = path.join(folder, 'key.pem');
  const certFile = path.join(folder, 'cert.pem');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,DNS:pinned.test,IP:127.0.0.1,IP:::1',
  ]);
  cert = await readFile(certFile, 'utf8');
  server = createServer({ key: await readFile(keyFile), cert }, (request, response) => {
    const url = new URL(request.url ?? '/', 'https://localhost');
    switch (url.pathname) {
      case '/page.html':
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HTML);
        return;
      case '/old':
        response.writeHead(301, { location: '/page.html' }).end();
        return;
      case '/to-http':
        response.writeHead(302, { location: `http://127.0.0.1:${port}/page.html` }).end();
        return;
      case '/away':
        response.writeHead(302, { location: 'https://example.org/target?x=1' }).end();
        return;
      case '/loop':
        response.writeHead(302, { location: '/loop' }).end();
        return;
      case '/big':
        response.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(3_000_000));
        return;
      case '/data.json':
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"version":"1.2.3"}');
        return;
      case '/image.png':
        response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]));
        return;
      case '/latin1':
        response
          .writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' })
          .end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
        return;
      case '/gzip':
        response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync(HTML));
        return;
      case '/bad-gzip':
        response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end('not gzip at all');
        return;
      case '/reset-gzip': {
        const zipped = gzipSync('y'.repeat(100_000));
        response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
        response.write(zipped.subarray(0, 200), () => response.socket?.destroy());
        return;
      }
      case '/untyped':
        response.end('plain words');
        return;
      case '/count':
        counted += 1;
        response.writeHead(200, { 'content-type': 'text/plain' }).end(`hit ${counted}`);
        return;
      case '/slow':
        return;
      default:
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  origin = `https://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(folder, { recursive: true, force: true });
});

function makeContext(
  services: ServiceRegistry = createServices(),
  signal = new AbortController().signal,
): ToolCallContext {
  return {
    toolUseId: 'toolu_w',
    signal,
    cwd: '/',
    sessionId: 'session-1',
    agentId: 'main',
    permissionMode: 'default',
    services,
    reportProgress: () => undefined,
  };
}

function localTool(options: WebFetchToolOptions = {}) {
  return createWebFetchTool({ allowPrivateHosts: ['127.0.0.1', 'localhost'], ca: cert, cacheTtlMs: 0, ...options });
}

async function fetchWith(
  tool: ReturnType<typeof createWebFetchTool>,
  url: string,
  prompt = '',
  context = makeContext(),
) {
  const input = webFetchInputSchema.parse({ url, prompt });
  const validation = await tool.validateInput(input, context);
  if (!validation.ok) return { content: validation.message, isError: true };
  return tool.mapResult(await tool.call(input, context), 'toolu_w');
}

describe('WebFetch', () => {
  it('converts HTML to Markdown without scripts or styles and hands the prompt back', async () => {
    const mapped = await fetchWith(localTool(), `${origin}/page.html`, 'How do I install it?');
    expect(mapped).toEqual({
      content:
        `Content of ${origin}/page.html (text/html, converted to Markdown):\n\n` +
        '# Install\n\nRun `npm install toolplane` to **install**.\n\n-   fast\n-   safe\n\n' +
        '[No small model is configured to apply your prompt; answer it from the content above: How do I install it?]',
    });
  });

  it('upgrades http to https and follows same-host redirects', async () => {
    expect((await fetchWith(localTool(), `http://127.0.0.1:${port}/page.html`)).content).toMatch(
      /^Content of https:\/\/127\.0\.0\.1:\d+\/page\.html/,
    );
    expect((await fetchWith(localTool(), `${origin}/old`)).content).toMatch(/# Install/);
    expect((await fetchWith(localTool(), `${origin}/to-http`)).content).toMatch(/# Install/);
    expect((await fetchWith(localTool(), `${origin}/gzip`)).content).toMatch(/# Install/);
  });

  it('does not follow a redirect to another host and says where it points', async () => {
    expect(await fetchWith(localTool(), `${origin}/away`)).toEqual({
      content:
        `${origin}/away redirects (HTTP 302) to another host: https://example.org/target?x=1\n` +
        'WebFetch does not follow redirects to other hosts. If that is the page you want, call WebFetch again with that URL.',
    });
  });

  it('gives up on endless redirects', async () => {
    expect(await fetchWith(localTool({ maxRedirects: 3 }), `${origin}/loop`)).toEqual({
      content: `${origin}/loop redirected more than 3 times; the page could not be reached.`,
      isError: true,
    });
  });

  it.each([
    ['https://127.0.0.1:PORT/page.html', '127.0.0.1 resolves to 127.0.0.1, a loopback address'],
    ['https://localhost:PORT/page.html', 'localhost resolves to 127.0.0.1, a loopback address'],
    ['http://10.1.2.3/', '10.1.2.3 resolves to 10.1.2.3, a private address'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254 resolves to 169.254.169.254, a link-local address'],
    ['https://100.64.1.1/', 'a shared address'],
    ['https://[::1]:PORT/', '::1 resolves to ::1, a loopback address'],
    ['https://[::ffff:127.0.0.1]:PORT/', '::ffff:7f00:1 resolves to ::ffff:7f00:1, a loopback address'],
    ['https://0.0.0.0:PORT/', 'an unspecified address'],
  ])('refuses %s unless the host is allowed', async (template, reason) => {
    const url = template.replace('PORT', String(port));
    const strict = createWebFetchTool({ ca: cert, cacheTtlMs: 0 });
    const mapped = await fetchWith(strict, url);
    expect(mapped.isError).toBe(true);
    expect(mapped.content).toContain(reason);
    expect(mapped.content).toMatch(/^Refused to fetch .*WebFetch only connects to public addresses/);
  });

  it('reaches a private host named in the allowlist, by name or by address', async () => {
    expect((await fetchWith(localTool(), `https://localhost:${port}/data.json`)).content).toContain(
      '{"version":"1.2.3"}',
    );
    const byAddress = createWebFetchTool({ allowPrivateHosts: ['127.0.0.1'], ca: cert, cacheTtlMs: 0 });
    expect((await fetchWith(byAddress, `${origin}/data.json`)).content).toBe(
      `Content of ${origin}/data.json (application/json):\n\n{"version":"1.2.3"}`,
    );
    expect((await fetchWith(byAddress, `https://localhost:${port}/data.json`)).content).toMatch(/^Refused/);
  });

  it('allow rules reach a private host only when they name it: WebFetch(domain:*) and bare WebFetch do not', async () => {
    const fromRules = (...rules: string[]) =>
      createWebFetchTool({
        allowPrivateHosts: privateHostsFromRules(
          rules.map((rule) => ({ rule, behavior: 'allow' as const, source: 'userSettings' as const, root: '/' })),
        ),
        ca: cert,
        cacheTtlMs: 0,
      });
    for (const wide of [
      fromRules('WebFetch(domain:*)'),
      fromRules('WebFetch'),
      fromRules('WebFetch(domain:*.0.0.1)', 'WebFetch(domain:127.*)'),
    ]) {
      expect((await fetchWith(wide, `${origin}/data.json`)).content).toMatch(/^Refused to fetch .*a loopback address/);
    }
    expect(
      (await fetchWith(fromRules('WebFetch(domain:*)', 'WebFetch(domain:127.0.0.1)'), `${origin}/data.json`)).content,
    ).toContain('{"version":"1.2.3"}');
  });

  it('checks every address a host resolves to, and connects only to the checked ones', async () => {
    const mixed = createWebFetchTool({
      ca: cert,
      cacheTtlMs: 0,
      resolveHost: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ],
    });
    expect((await fetchWith(mixed, 'https://mixed.test/')).content).toMatch(
      /^Refused to fetch https:\/\/mixed\.test\/: mixed\.test resolves to 10\.0\.0\.7, a private address\./,
    );
    const lookups: string[] = [];
    const pinned = createWebFetchTool({
      allowPrivateHosts: ['pinned.test'],
      ca: cert,
      cacheTtlMs: 0,
      resolveHost: async (hostname) => {
        lookups.push(hostname);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    // The system resolver does not know pinned.test: reaching the server proves the socket used
    // the checked answer, and only one resolution happened.
    expect((await fetchWith(pinned, `https://pinned.test:${port}/data.json`)).content).toContain('{"version":"1.2.3"}');
    expect(lookups).toEqual(['pinned.test']);
  });

  it('caps the body size and the text length, and says so', async () => {
    const bytes = await fetchWith(localTool({ maxBytes: 1_000 }), `${origin}/big`);
    expect(bytes.content).toContain('[Truncated: the page is larger than 1000 bytes and only its beginning was read.]');
    const chars = await fetchWith(localTool({ maxContentChars: 50 }), `${origin}/big`);
    expect(chars.content).toContain(
      `\n\n${'x'.repeat(50)}\n\n[Truncated: the text was cut to its first 50 of 3000000 characters.]`,
    );
  });

  it('returns non-HTML text as it is, honours the charset, and reports binary content', async () => {
    expect((await fetchWith(localTool(), `${origin}/latin1`)).content).toBe(
      `Content of ${origin}/latin1 (text/plain):\n\ncafé`,
    );
    expect((await fetchWith(localTool(), `${origin}/untyped`)).content).toBe(
      `Content of ${origin}/untyped (text/plain):\n\nplain words`,
    );
    expect(await fetchWith(localTool(), `${origin}/image.png`)).toEqual({
      content: `${origin}/image.png returned image/png content (7 bytes), which WebFetch does not convert to text. Look for an HTML or text version of it.`,
      isError: true,
    });
  });

  it('reports HTTP errors, unreachable hosts, bad certificates and timeouts', async () => {
    expect(await fetchWith(localTool(), `${origin}/missing`)).toMatchObject({
      isError: true,
      content: expect.stringMatching(/answered HTTP 404 Not Found/),
    });
    const untrusted = createWebFetchTool({ allowPrivateHosts: ['127.0.0.1'], cacheTtlMs: 0 });
    expect((await fetchWith(untrusted, `${origin}/page.html`)).content).toMatch(
      /^The TLS certificate of 127\.0\.0\.1:\d+ could not be verified/,
    );
    expect((await fetchWith(localTool(), 'https://127.0.0.1:1/')).content).toMatch(
      /^Could not connect to 127\.0\.0\.1:1 \(ECONNREFUSED\)/,
    );
    expect((await fetchWith(localTool(), 'https://no-such-host.invalid/')).content).toBe(
      'The host no-such-host.invalid could not be resolved. Check the spelling of the URL.',
    );
    expect((await fetchWith(localTool({ timeoutMs: 200 }), `${origin}/slow`)).content).toMatch(
      /timed out after 200 ms/,
    );
    const controller = new AbortController();
    const pending = fetchWith(localTool(), `${origin}/slow`, '', makeContext(createServices(), controller.signal));
    setTimeout(() => controller.abort(), 50);
    expect((await pending).content).toBe(`The fetch of ${origin}/slow was cancelled.`);
  });

  it('fails cleanly on a corrupt compressed body and on a connection reset mid-body', async () => {
    expect(await fetchWith(localTool(), `${origin}/bad-gzip`)).toEqual({
      content: `Could not fetch ${origin}/bad-gzip: incorrect header check.`,
      isError: true,
    });
    const reset = await fetchWith(localTool(), `${origin}/reset-gzip`);
    expect(reset.isError).toBe(true);
    expect(reset.content).toMatch(/^(Could not fetch|Could not connect to)/);
  });

  it('rejects malformed URLs before fetching', async () => {
    const tool = localTool();
    expect((await fetchWith(tool, 'not a url')).content).toMatch(/is not a valid URL/);
    expect((await fetchWith(tool, 'ftp://example.com/file')).content).toBe(
      'Only http and https URLs can be fetched, not ftp.',
    );
    expect((await fetchWith(tool, 'https://user:pw@example.com/')).content).toMatch(/user name or password/);
    expect((await fetchWith(tool, `https://example.com/${'a'.repeat(2_000)}`)).content).toMatch(
      /at most 2000 are accepted/,
    );
  });

  it('reuses a page for the cache lifetime', async () => {
    let clock = 0;
    const tool = localTool({ cacheTtlMs: 1_000, now: () => clock });
    const before = counted;
    expect((await fetchWith(tool, `${origin}/count`)).content).toContain(`hit ${before + 1}`);
    expect((await fetchWith(tool, `${origin}/count`)).content).toContain(`hit ${before + 1}`);
    clock = 1_001;
    expect((await fetchWith(tool, `${origin}/count`)).content).toContain(`hit ${before + 2}`);
  });

  it('applies the prompt through the small-model hook, and falls back to the content when it fails', async () => {
    const seen: string[] = [];
    const services = createServices().set(WEB_FETCH_PROMPT_APPLIER, {
      async apply(request) {
        seen.push(`${request.prompt}|${request.content.slice(0, 9)}`);
        return 'Run npm install toolplane.';
      },
    });
    expect(await fetchWith(localTool(), `${origin}/page.html`, 'install command?', makeContext(services))).toEqual({
      content: 'Run npm install toolplane.',
    });
    expect(seen).toEqual(['install command?|# Install']);
    const failing = createServices().set(WEB_FETCH_PROMPT_APPLIER, {
      apply: async () => Promise.reject(new Error('model offline')),
    });
    const mapped = await fetchWith(localTool(), `${origin}/page.html`, 'install command?', makeContext(failing));
    expect(mapped.content).toMatch(/# Install/);
    expect(mapped.content).toMatch(
      /\[The small model could not apply your prompt \(model offline\); answer it from the content above: install command\?\]$/,
    );
  });

  it('declares itself read-only and concurrency-safe', () => {
    const tool = localTool();
    const input = { url: 'https://example.com', prompt: 'x' };
    expect(tool.isReadOnly(input)).toBe(true);
    expect(tool.isConcurrencySafe(input)).toBe(true);
    expect(tool.describeInput(input)).toBe('https://example.com');
  });
});

describe('createModelPromptApplier', () => {
  it('asks the provider with the page and the prompt and returns the text', async () => {
    const requests: unknown[] = [];
    const provider: ModelProvider = {
      name: 'fake',
      defaultModel: 'small-model',
      capabilities: { toolReference: false, webSearch: false },
      async *stream(request): AsyncIterable<ModelStreamEvent> {
        requests.push(request);
        yield { type: 'text-delta', text: 'partial' };
        yield {
          type: 'message-complete',
          message: { role: 'assistant', content: [{ type: 'text', text: ' The answer. ' }] },
          stopReason: 'end_turn',
          usage: { inputTokens: 1, outputTokens: 1 },
        };
      },
    };
    const applier = createModelPromptApplier({ provider });
    const answer = await applier.apply({
      url: 'https://e.x',
      prompt: 'what?',
      content: 'page text',
      signal: new AbortController().signal,
    });
    expect(answer).toBe('The answer.');
    expect(requests[0]).toMatchObject({ model: 'small-model', tools: [], maxTokens: 2_048 });
    expect(JSON.stringify(requests[0])).toContain('<page>\\npage text\\n</page>');
  });
});

describe('model-facing definition', () => {
  it('is stable (it is API and part of the prompt-cache prefix)', () => {
    const cache = createApiToolCache();
    expect([cache.toApiTool(createWebFetchTool())]).toMatchSnapshot();
  });
});
