// The demo's MCP server: project statistics over stdio. Plain JavaScript, started by `node`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'project-tools', version: '1.0.0' });

function* files(folder) {
  for (const name of readdirSync(folder)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(folder, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

server.registerTool(
  'count_lines',
  {
    description: 'Counts the lines of code per source file in a project folder (statistics about the code base size).',
    inputSchema: {
      path: z.string().describe('Absolute path of the project folder.'),
      extension: z.string().optional().describe('Only files with this extension, e.g. ".js".'),
    },
    annotations: { readOnlyHint: true },
  },
  async ({ path, extension }) => {
    const rows = [];
    for (const file of files(path)) {
      if (extension && !file.endsWith(extension)) continue;
      rows.push(`${relative(path, file)}: ${readFileSync(file, 'utf8').split('\n').length} lines`);
    }
    return { content: [{ type: 'text', text: rows.join('\n') || 'no files' }] };
  },
);

server.registerTool(
  'list_dependencies',
  {
    description: 'Lists the npm dependencies declared in a package.json.',
    inputSchema: { path: z.string().describe('Absolute path of the package.json.') },
    annotations: { readOnlyHint: true },
  },
  async ({ path }) => {
    const manifest = JSON.parse(readFileSync(path, 'utf8'));
    const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
    return { content: [{ type: 'text', text: names.join('\n') || 'no dependencies' }] };
  },
);

server.registerTool(
  'read_build_log',
  {
    description:
      'Returns the whole build log of the project (logs/build.log): every step with its timing and warnings.',
    inputSchema: { path: z.string().describe('Absolute path of the project folder.') },
    annotations: { readOnlyHint: true },
  },
  async ({ path }) => ({ content: [{ type: 'text', text: readFileSync(join(path, 'logs', 'build.log'), 'utf8') }] }),
);

await server.connect(new StdioServerTransport());
