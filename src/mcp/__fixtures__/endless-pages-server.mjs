// An MCP server for toolplane's tests whose tools/list or resources/list (TEST_SERVER_ENDLESS=tools
// or resources) never stops paging: every page names a next cursor (TEST_SERVER_CURSORS=repeat:
// always the same one; otherwise always a new one). The other list has one page. Plain JavaScript
// over stdio, with the low-level Server so the list handlers are its own.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ListResourcesRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const repeat = process.env.TEST_SERVER_CURSORS === 'repeat';
let page = 0;
const endless = process.env.TEST_SERVER_ENDLESS;
const nextCursor = (list) => (endless !== list ? undefined : repeat ? 'again' : `page-${++page}`);

const server = new Server({ name: 'endless-pages', version: '1.0.0' }, { capabilities: { tools: {}, resources: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [{ name: `tool_${page}`, inputSchema: { type: 'object' } }],
  nextCursor: nextCursor('tools'),
}));
server.setRequestHandler(ListResourcesRequestSchema, () => ({
  resources: [{ uri: `test://r/${page}`, name: `r${page}` }],
  nextCursor: nextCursor('resources'),
}));
await server.connect(new StdioServerTransport());
