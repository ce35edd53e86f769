// A bare JSON-RPC MCP server over stdio for toolplane's tests (no SDK, so nothing checks what it
// sends). It lists two good tools among malformed ones: no inputSchema, no name, an input schema
// that does not compile, a name too long for any API, a name with a tab. `big` answers with
// `bytes` characters of text, to go over a client's message limit; `echo` answers with its input.
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const object = { type: 'object' };
const tools = [
  { name: 'echo', description: 'Echoes text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
  { name: 'no_schema', description: 'Has no input schema.' },
  { description: 'Has no name.', inputSchema: object },
  { name: 'bad_schema', inputSchema: { type: 'object', properties: { a: { type: 'bogus' } } } },
  { name: 'n'.repeat(200), inputSchema: object },
  { name: 'tab\tname', inputSchema: object },
  { name: 'big', inputSchema: { type: 'object', properties: { bytes: { type: 'number' } } } },
];

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  switch (message.method) {
    case 'initialize':
      return send({
        id: message.id,
        result: {
          protocolVersion: message.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'uneven', version: '1.0.0' },
        },
      });
    case 'tools/list':
      return send({ id: message.id, result: { tools } });
    case 'tools/call': {
      const { name, arguments: input } = message.params;
      const text = name === 'big' ? 'x'.repeat(input.bytes) : String(input.text ?? process.pid);
      return send({ id: message.id, result: { content: [{ type: 'text', text }] } });
    }
    default:
      return send({ id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
});
