import { describe, expect, it } from 'vitest';
import { z, type ZodType } from 'zod';
import type { AnyTool } from '../../contract/tool.js';
import { editTool } from '../edit/edit-tool.js';
import { globTool } from '../glob/glob-tool.js';
import { grepTool } from '../grep/grep-tool.js';
import { notebookEditTool } from '../notebook-edit/notebook-edit-tool.js';
import { readTool } from '../read/read-tool.js';
import { writeTool } from '../write/write-tool.js';

const tools: readonly AnyTool[] = [readTool, writeTool, editTool, notebookEditTool, globTool, grepTool];

// The model-facing face of each file tool is API, and prompt-cache stability depends on its bytes.
describe('file tool definitions', () => {
  for (const tool of tools) {
    it(`${tool.name} keeps its model-facing definition`, () => {
      const description = typeof tool.prompt === 'function' ? tool.prompt({ toolNames: [] }) : tool.prompt;
      const inputSchema = z.toJSONSchema(tool.inputSchema as ZodType, { io: 'input', unrepresentable: 'any' });
      expect({ name: tool.name, description, input_schema: inputSchema }).toMatchSnapshot();
    });
  }

  it('render the same bytes every time', () => {
    for (const tool of tools) {
      const once = JSON.stringify(z.toJSONSchema(tool.inputSchema as ZodType, { io: 'input' }));
      const again = JSON.stringify(z.toJSONSchema(tool.inputSchema as ZodType, { io: 'input' }));
      expect(again).toBe(once);
    }
  });
});
