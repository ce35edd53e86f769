import { z } from 'zod';
import { defineTool } from '../contract/define-tool.js';
import { jsonSchema, type AnyTool } from '../contract/tool.js';

/**
 * Small tools for tests, benchmarks and examples of the contract. They touch nothing outside the
 * process; their model-facing definitions are pinned by snapshot tests.
 */

/** Returns its text. Read-only and concurrency-safe. */
export const echoTool = defineTool({
  name: 'Echo',
  inputSchema: z.object({ text: z.string().describe('The text to return.') }).strict(),
  prompt: 'Returns the given text unchanged. Use it to test that tool calls work.',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  describeInput: (input) => `echo ${JSON.stringify(input.text)}`,
  call: async (input) => input.text,
});

/** Does nothing and returns nothing. Read-only and concurrency-safe: the plane's overhead alone. */
export const noopTool = defineTool({
  name: 'Noop',
  inputSchema: z.object({ note: z.string().optional().describe('Ignored.') }),
  prompt: 'Does nothing. Used to measure the runtime overhead of a tool call.',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  call: async () => 'ok',
});

/** Waits `ms` milliseconds (or until aborted), then reports how long it waited. */
export const sleepTool = defineTool({
  name: 'Sleep',
  inputSchema: z.object({
    ms: z.number().int().min(0).max(60_000).describe('How long to wait, in milliseconds.'),
    safe: z.boolean().optional().describe('Whether this call may run in parallel with others.'),
  }),
  prompt: 'Waits for the given number of milliseconds. Used in tests of scheduling and time limits.',
  isConcurrencySafe: (input) => input.safe === true,
  isReadOnly: () => true,
  call: (input, context) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => resolve(`slept ${input.ms} ms`), input.ms);
      context.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(new Error('aborted'));
        },
        { once: true },
      );
    }),
});

/** Always throws with the given message. Cancels its siblings, as Bash does. */
export const failTool = defineTool({
  name: 'Fail',
  inputSchema: z.object({ message: z.string().describe('The error message to throw.') }),
  prompt: 'Always fails with the given message. Used in tests of failure handling.',
  errorCancelsSiblings: true,
  call: async (input): Promise<string> => {
    throw new Error(input.message);
  },
});

/** An external-style tool with a raw JSON Schema, as MCP tools have. */
export const weatherTool = defineTool({
  name: 'mcp__sample__get_weather',
  origin: 'external',
  external: { server: 'sample', tool: 'get_weather' },
  inputSchema: jsonSchema({
    type: 'object',
    properties: {
      city: { type: 'string', description: 'City name.' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'], description: 'Temperature unit.' },
    },
    required: ['city'],
    additionalProperties: false,
  }),
  prompt: 'Returns the current weather for a city (sample data).',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  call: async (input: { city: string; unit?: string }) => ({
    city: input.city,
    temperature: 21,
    unit: input.unit ?? 'celsius',
  }),
});

/** All sample tools. */
export const sampleTools: readonly AnyTool[] = [echoTool, noopTool, sleepTool, failTool, weatherTool];
