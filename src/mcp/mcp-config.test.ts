import { describe, expect, it } from 'vitest';
import { expandEnvVars } from './expand-env-vars.js';
import { formatMcpConfigIssue, parseMcpConfigText, parseMcpServers } from './mcp-config.js';
import { mergeMcpConfigs } from './merge-mcp-configs.js';
import type { McpServerConfig } from './mcp-config.js';

const env = { HOME: '/home/me', TOKEN: 'secret', EMPTY: '' };

describe('expandEnvVars', () => {
  it('expands ${VAR} and ${VAR:-default}, leaving $VAR alone', () => {
    expect(expandEnvVars('${HOME}/x ${NOPE:-fallback} $HOME', env)).toEqual({
      value: '/home/me/x fallback $HOME',
      missing: [],
    });
  });

  it('uses a variable set to empty text rather than its default', () => {
    expect(expandEnvVars('[${EMPTY:-d}]', env).value).toBe('[]');
  });

  it('lists unset variables without a default', () => {
    expect(expandEnvVars('a${NOPE}b', env)).toEqual({ value: 'ab', missing: ['NOPE'] });
  });

  it('does not read inherited properties as variables', () => {
    expect(expandEnvVars('${toString}', env)).toEqual({ value: '', missing: ['toString'] });
  });
});

describe('parseMcpServers', () => {
  it('reads stdio, http and sse servers in the reference shape', () => {
    const { servers, issues } = parseMcpServers({
      file: '.mcp.json',
      env,
      servers: {
        local: { command: 'node', args: ['server.js', '${HOME}'], env: { API_TOKEN: '${TOKEN}' }, cwd: '${HOME}/srv' },
        remote: {
          type: 'http',
          url: 'https://example.com/mcp',
          headers: { Authorization: 'Bearer ${TOKEN}' },
          timeout: 5000,
        },
        legacy: { type: 'sse', url: 'http://127.0.0.1:9/sse', defer: false, alwaysLoad: ['x'] },
      },
    });
    expect(issues).toEqual([]);
    expect(servers.get('local')).toEqual({
      type: 'stdio',
      command: 'node',
      args: ['server.js', '/home/me'],
      env: { API_TOKEN: 'secret' },
      cwd: '/home/me/srv',
      defer: true,
      alwaysLoad: [],
    });
    expect(servers.get('remote')).toMatchObject({
      type: 'http',
      url: 'https://example.com/mcp',
      headers: { Authorization: 'Bearer secret' },
      timeoutMs: 5000,
    });
    expect(servers.get('legacy')).toMatchObject({ type: 'sse', defer: false, alwaysLoad: ['x'] });
  });

  it('keeps names like __proto__ as data in env and headers', () => {
    const raw = JSON.parse('{"s": {"command": "node", "env": {"__proto__": "x", "A": "1"}}}') as unknown;
    const config = parseMcpServers({ file: 'f', env, servers: raw }).servers.get('s');
    expect(config?.type === 'stdio' && Object.entries(config.env)).toEqual([
      ['__proto__', 'x'],
      ['A', '1'],
    ]);
  });

  it('ignores keys other clients add', () => {
    const { servers, issues } = parseMcpServers({
      file: 'f',
      env,
      servers: { s: { command: 'node', disabled: false, autoApprove: [] } },
    });
    expect(issues).toEqual([]);
    expect(servers.has('s')).toBe(true);
  });

  it('reports each bad server with the file and its name, and still loads the others', () => {
    const { servers, issues } = parseMcpServers({
      file: '/repo/.mcp.json',
      env,
      servers: {
        good: { command: 'node' },
        noCommand: { args: ['x'] },
        badArgs: { command: 'node', args: 'x' },
        noType: { url: 'https://example.com' },
        badType: { type: 'ws', url: 'ws://x' },
        badUrl: { type: 'http', url: 'not a url' },
        fileUrl: { type: 'http', url: 'file:///etc/passwd' },
        unset: { command: 'node', env: { KEY: '${MISSING_ONE}', OTHER: '${MISSING_TWO}' } },
        unsetHost: { type: 'http', url: '${MISSING_HOST}/mcp' },
        scalar: 'node server.js',
      },
    });
    expect([...servers.keys()]).toEqual(['good']);
    const byServer = new Map(issues.map((issue) => [issue.server, issue.message]));
    expect(byServer.get('noCommand')).toMatch(/command/);
    expect(byServer.get('badArgs')).toMatch(/args/);
    expect(byServer.get('noType')).toMatch(/add "type": "http"/);
    expect(byServer.get('badType')).toMatch(/unknown type "ws"/);
    expect(byServer.get('badUrl')).toMatch(/not a valid URL/);
    expect(byServer.get('fileUrl')).toMatch(/http: or https:/);
    expect(byServer.get('unset')).toBe(
      'environment variables MISSING_ONE, MISSING_TWO not set: set them or give a default as ${NAME:-value}',
    );
    expect(byServer.get('unsetHost')).toBe(
      'environment variable MISSING_HOST not set: set it or give a default as ${NAME:-value}',
    );
    expect(byServer.get('scalar')).toMatch(/must be an object/);
    expect(issues.every((issue) => issue.file === '/repo/.mcp.json')).toBe(true);
    expect(formatMcpConfigIssue(issues[0] ?? { file: '', message: '' })).toMatch(
      /^\/repo\/\.mcp\.json: server "noCommand": /,
    );
  });

  it('refuses server names that would make tool names ambiguous, and keeps look-alikes that are not', () => {
    const servers = Object.fromEntries(
      [
        'docs',
        'docs__admin',
        'docs..admin',
        'docs_',
        '_docs',
        'docs-admin',
        'docs_admin',
        'docs.admin',
        'a'.repeat(48),
        'b'.repeat(49),
      ].map((name) => [name, { command: 'node' }]),
    );
    const { servers: loaded, issues } = parseMcpServers({ file: '/repo/.mcp.json', env, servers });
    expect([...loaded.keys()]).toEqual(['docs', 'docs-admin', 'docs_admin', 'docs.admin', 'a'.repeat(48)]);
    const byServer = new Map(issues.map((issue) => [issue.server, issue.message]));
    expect(byServer.get('docs__admin')).toMatch(
      /^server name "docs__admin" is ambiguous: tool names are mcp__<server>__<tool>, split at the first "__"/,
    );
    expect(byServer.get('docs..admin')).toMatch(/"docs\.\.admin" \(docs__admin in tool names\) is ambiguous/);
    expect(byServer.get('docs_')).toMatch(/ambiguous/);
    expect(byServer.get('_docs')).toMatch(/ambiguous/);
    expect(byServer.get('b'.repeat(49))).toMatch(/longer than 48 characters/);
    expect(issues.every((issue) => issue.message.endsWith('; the server is not started'))).toBe(true);
  });

  it('reports an mcpServers value that is not an object', () => {
    const { issues } = parseMcpServers({ file: 'settings.json', env, servers: [] });
    expect(formatMcpConfigIssue(issues[0] ?? { file: '', message: '' })).toBe(
      'settings.json: "mcpServers" must be an object mapping server names to server configs',
    );
  });
});

describe('parseMcpConfigText', () => {
  it('reads {"mcpServers": …}', () => {
    const parsed = parseMcpConfigText({ file: 'x.json', env, text: '{"mcpServers": {"s": {"command": "node"}}}' });
    expect([...parsed.servers.keys()]).toEqual(['s']);
  });

  it('reports text that is not JSON', () => {
    expect(parseMcpConfigText({ file: 'x.json', env, text: '{' }).issues[0]?.message).toMatch(/^not valid JSON: /);
  });

  it('reports JSON without mcpServers', () => {
    expect(parseMcpConfigText({ file: 'x.json', env, text: '{"servers": {}}' }).issues[0]?.message).toBe(
      'expected an object with an "mcpServers" key',
    );
  });
});

describe('mergeMcpConfigs', () => {
  const stdio = (command: string): McpServerConfig => ({
    type: 'stdio',
    command,
    args: [],
    env: {},
    defer: true,
    alwaysLoad: [],
  });

  it('lets flag beat local beat project beat user, whatever the order given, and reports overrides', () => {
    const merged = mergeMcpConfigs([
      { scope: 'flag', file: 'flag.json', servers: new Map([['a', stdio('flag')]]) },
      {
        scope: 'user',
        file: 'user.json',
        servers: new Map([
          ['a', stdio('user')],
          ['b', stdio('user')],
          ['c', stdio('user')],
        ]),
      },
      { scope: 'local', file: 'local.json', servers: new Map([['b', stdio('local')]]) },
      {
        scope: 'project',
        file: '.mcp.json',
        servers: new Map([
          ['a', stdio('project')],
          ['b', stdio('project')],
          ['d', stdio('project')],
        ]),
      },
    ]);
    expect(merged.servers.map((entry) => [entry.name, entry.scope, entry.fromWorkspace])).toEqual([
      ['a', 'flag', false],
      ['b', 'local', true],
      ['c', 'user', false],
      ['d', 'project', true],
    ]);
    expect(merged.overrides).toContainEqual({
      name: 'a',
      used: { scope: 'flag', file: 'flag.json' },
      ignored: { scope: 'project', file: '.mcp.json' },
    });
    expect(merged.overrides).toHaveLength(4);
  });

  it('lets a later source of the same scope win', () => {
    const merged = mergeMcpConfigs([
      { scope: 'project', file: '.mcp.json', servers: new Map([['a', stdio('first')]]) },
      { scope: 'project', file: 'settings.json', servers: new Map([['a', stdio('second')]]) },
    ]);
    expect(merged.servers[0]?.file).toBe('settings.json');
  });
});
