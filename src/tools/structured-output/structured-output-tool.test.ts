import { describe, expect, it } from 'vitest';
import { ToolplaneError } from '../../errors/toolplane-error.js';
import { createStructuredOutputTool, STRUCTURED_OUTPUT_TOOL_NAME } from './structured-output-tool.js';

describe('createStructuredOutputTool', () => {
  it("makes an always-loaded tool whose schema is the caller's", async () => {
    const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] };
    const tool = createStructuredOutputTool(schema);
    expect(tool.name).toBe(STRUCTURED_OUTPUT_TOOL_NAME);
    expect(tool.alwaysLoad).toBe(true);
    expect(tool.inputSchema).toEqual({ kind: 'json-schema', schema });
    expect(await tool.call({ answer: 1 }, {} as never)).toBe('Structured output received.');
  });

  it('refuses schemas that do not describe an object', () => {
    expect(() => createStructuredOutputTool({ type: 'array' })).toThrow(ToolplaneError);
    expect(() => createStructuredOutputTool({ type: 'array' })).toThrow(/must describe an object/);
  });
});
