import { createRequire } from 'node:module';
import { createCallContext } from '../../testing/call-context.js';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../contract/services.js';
import type { Services } from '../../contract/services.js';
import type { AnyTool, MappedResult, ToolCallContext } from '../../contract/tool.js';
import { createMcpManager } from '../../mcp/mcp-manager.js';
import type { McpManager } from '../../mcp/mcp-manager.js';
import type { McpServerEntry } from '../../mcp/merge-mcp-configs.js';
import { createApiToolCache } from '../../schema/to-api-tool.js';
import { listMcpResourcesTool } from './list-mcp-resources-tool.js';
import { mcpResourcesService } from './mcp-resource-service.js';
import type { McpResourceAccess } from './mcp-resource-service.js';
import { readMcpResourceTool } from './read-mcp-resource-tool.js';

const require = createRequire(import.meta.url);
const TEST_SERVER = fileURLToPath(new URL('../../mcp/__fixtures__/test-server.mjs', import.meta.url));

function packageBin(pkg: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = require(manifestPath) as { bin: Record<string, string> };
  return join(dirname(manifestPath), Object.values(manifest.bin)[0] ?? '');
}

function entry(name: string, args: string[], env: Record<string, string> = {}): McpServerEntry {
  return {
    name,
    scope: 'user',
    file: 'user.json',
    fromWorkspace: false,
    config: { type: 'stdio', command: process.execPath, args, env, defer: true, alwaysLoad: [] },
  };
}

function context(services: Services): ToolCallContext {
  return createCallContext({ toolUseId: 'toolu_1', cwd: process.cwd(), services });
}

async function run(tool: AnyTool, input: unknown, services: Services): Promise<MappedResult> {
  return tool.mapResult(await tool.call(input, context(services)), 'toolu_1');
}

describe('ListMcpResourcesTool and ReadMcpResourceTool', () => {
  let manager: McpManager;
  let services: Services;
  let dir: string;

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'toolplane-mcp-res-')));
    manager = createMcpManager({
      baseEnv: process.env,
      cwd: process.cwd(),
      trusted: true,
      servers: [
        entry('everything', [packageBin('@modelcontextprotocol/server-everything'), 'stdio']),
        entry('filesystem', [packageBin('@modelcontextprotocol/server-filesystem'), dir]),
        entry('test', [TEST_SERVER]),
        entry('broken', [TEST_SERVER], { TEST_SERVER_FAIL_MESSAGE: 'no credentials' }),
      ],
    });
    // The manager is registered as it is: it implements the tools' service interface.
    const access: McpResourceAccess = manager;
    services = createServices().set(mcpResourcesService, access);
    await manager.whenSettled({ signal: AbortSignal.timeout(20_000) });
  });
  afterAll(async () => {
    await manager.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('are read-only, concurrency-safe, and answer to the short names too', () => {
    for (const tool of [listMcpResourcesTool, readMcpResourceTool]) {
      expect([
        tool.isReadOnly({} as never),
        tool.isConcurrencySafe({} as never),
        tool.isDestructive({} as never),
      ]).toEqual([true, true, false]);
    }
    expect(listMcpResourcesTool.aliases).toEqual(['ListMcpResources']);
    expect(readMcpResourceTool.aliases).toEqual(['ReadMcpResource']);
  });

  it('lists the resources of every server, naming the servers it could not ask', async () => {
    const result = await run(listMcpResourcesTool, {}, services);
    expect(result.isError).toBeUndefined();
    const [json, ...notes] = String(result.content).split('\n]\n');
    const resources = JSON.parse(`${json}\n]`) as { server: string; uri: string }[];
    expect(resources).toContainEqual(
      expect.objectContaining({ server: 'test', uri: 'test://doc/1', name: 'first doc', mimeType: 'text/plain' }),
    );
    expect(resources.some((resource) => resource.server === 'everything' && resource.uri.startsWith('demo://'))).toBe(
      true,
    );
    expect(notes.join('\n')).toMatch(/^Server "broken" was not asked: not connected: .*no credentials/);
  });

  it('lists one server', async () => {
    const result = await run(listMcpResourcesTool, { server: 'test' }, services);
    expect(JSON.parse(String(result.content))).toEqual([
      { server: 'test', uri: 'test://doc/1', name: 'first doc', mimeType: 'text/plain', description: 'the first doc' },
    ]);
  });

  it('says so when a server has no resources', async () => {
    expect((await run(listMcpResourcesTool, { server: 'filesystem' }, services)).content).toBe(
      'No MCP server offers any resources. Servers without resources can still offer tools.',
    );
  });

  it('answers an unknown server with the configured names', async () => {
    expect(await run(listMcpResourcesTool, { server: 'nope' }, services)).toEqual({
      content: 'There is no MCP server named "nope". Configured servers: everything, filesystem, test, broken.',
      isError: true,
    });
  });

  it('reads a text resource', async () => {
    expect(await run(readMcpResourceTool, { server: 'test', uri: 'test://doc/1' }, services)).toEqual({
      content: '[Resource test://doc/1 (text/plain)]\ndoc body',
    });
    const doc = await run(
      readMcpResourceTool,
      { server: 'everything', uri: 'demo://resource/static/document/architecture.md' },
      services,
    );
    expect(doc.content).toMatch(/^\[Resource demo:\/\/resource\/static\/document\/architecture\.md/);
  });

  it('reads a binary resource as a note', async () => {
    const blob = await run(
      readMcpResourceTool,
      { server: 'everything', uri: 'demo://resource/dynamic/blob/1' },
      services,
    );
    expect(blob.isError).toBeUndefined();
    expect(JSON.stringify(blob.content)).toMatch(/demo:\/\/resource\/dynamic\/blob\/1/);
  });

  it('answers a URI the server does not have with an error that says what to do', async () => {
    const result = await run(readMcpResourceTool, { server: 'test', uri: 'test://missing' }, services);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(
      /^MCP server "test" could not read test:\/\/missing: .*List the server's resources with ListMcpResources/,
    );
  });

  it('answers a server that is not connected with its reason', async () => {
    const result = await run(readMcpResourceTool, { server: 'broken', uri: 'x://y' }, services);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^MCP server "broken" is not connected: .*no credentials/);
  });

  it('answers when the host has no MCP servers', async () => {
    expect((await run(listMcpResourcesTool, {}, createServices())).isError).toBe(true);
    expect((await run(readMcpResourceTool, { server: 'a', uri: 'b' }, createServices())).content).toMatch(
      /^No MCP servers are available/,
    );
  });

  it('keeps the model-facing definitions byte-stable', () => {
    const cache = createApiToolCache();
    expect(cache.toApiTool(listMcpResourcesTool)).toMatchInlineSnapshot(`
      {
        "description": "Lists the resources (documents, files, records) that the connected MCP servers offer.
      Each entry has the resource's uri, name and, when the server gives them, title, mimeType and description, plus the server it comes from. Read one with ReadMcpResourceTool.

      Give server to list one server's resources; leave it out to list every server's.",
        "input_schema": {
          "additionalProperties": false,
          "properties": {
            "server": {
              "description": "Name of the MCP server whose resources to list; omit for all servers",
              "type": "string",
            },
          },
          "type": "object",
        },
        "name": "ListMcpResourcesTool",
      }
    `);
    expect(cache.toApiTool(readMcpResourceTool)).toMatchInlineSnapshot(`
      {
        "description": "Reads one resource from an MCP server: give the server's name and the resource's uri, as ListMcpResourcesTool or a tool's resource link shows them.
      Text comes back as text; images as images; other binary content as a note with its type and size.",
        "input_schema": {
          "additionalProperties": false,
          "properties": {
            "server": {
              "description": "Name of the MCP server that offers the resource",
              "type": "string",
            },
            "uri": {
              "description": "The uri of the resource, exactly as the server lists it",
              "type": "string",
            },
          },
          "required": [
            "server",
            "uri",
          ],
          "type": "object",
        },
        "name": "ReadMcpResourceTool",
      }
    `);
  });
});
