// A bare JSON-RPC MCP server over stdio for toolplane's tests (no SDK, so nothing checks what it
// sends): its one tool, `bad`, answers with a result that is not a valid CallToolResult (an image
// block without data or mimeType). `pid` reports its process id, to tell whether it was restarted.
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const tools = [
  { name: 'bad', inputSchema: { type: 'object' } },
  { name: 'pid', inputSchema: { type: 'object' } },
];

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  switch (message.method) {
    case 'initialize':
      return send({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'malformed', version: '1.0.0' } } });
    case 'tools/list':
      return send({ id: message.id, result: { tools } });
    case 'tools/call':
      if (message.params.name === 'bad') return send({ id: message.id, result: { content: [{ type: 'image' }] } });
      return send({ id: message.id, result: { content: [{ type: 'text', text: String(process.pid) }] } });
    default:
      return send({ id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
});
