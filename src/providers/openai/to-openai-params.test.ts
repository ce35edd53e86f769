import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../contract/provider.js';
import { unparseableInput } from '../../messages/types.js';
import { IMAGE_MOVED_NOTE, markToolError, toOpenAIParams } from './to-openai-params.js';

const base: ModelRequest = { model: 'llama3', system: 'sys', messages: [], tools: [], maxTokens: 100 };
const options = { model: 'llama3', maxTokensField: 'max_tokens', streamUsage: true } as const;

describe('toOpenAIParams', () => {
  it('puts the system prompt first, joins system blocks and streams with usage', () => {
    const params = toOpenAIParams(
      {
        ...base,
        system: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
        messages: [{ role: 'user', content: 'hi' }],
      },
      options,
    );
    expect(params).toEqual({
      model: 'llama3',
      stream: true,
      max_tokens: 100,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'one\n\ntwo' },
        { role: 'user', content: 'hi' },
      ],
    });
  });

  it('can name the limit max_completion_tokens and leave out stream options and an empty system prompt', () => {
    const params = toOpenAIParams(
      { ...base, system: '' },
      { model: 'o4', maxTokensField: 'max_completion_tokens', streamUsage: false },
    );
    expect(params).toEqual({ model: 'o4', stream: true, max_completion_tokens: 100, messages: [] });
  });

  it('maps tools to functions with the input schema as parameters, and every tool_choice', () => {
    const tools = [
      {
        name: 'Read',
        description: 'Reads.',
        input_schema: { type: 'object', properties: {} },
        strict: true,
        defer_loading: true,
      },
    ];
    const choice = (toolChoice: ModelRequest['toolChoice']) =>
      toOpenAIParams({ ...base, tools, toolChoice }, options).tool_choice;
    expect(toOpenAIParams({ ...base, tools }, options).tools).toEqual([
      {
        type: 'function',
        function: { name: 'Read', description: 'Reads.', parameters: { type: 'object', properties: {} }, strict: true },
      },
    ]);
    expect(choice({ type: 'auto' })).toBe('auto');
    expect(choice({ type: 'any' })).toBe('required');
    expect(choice({ type: 'none' })).toBe('none');
    expect(choice({ type: 'tool', name: 'Read' })).toEqual({ type: 'function', function: { name: 'Read' } });
    expect(toOpenAIParams({ ...base, toolChoice: { type: 'any' } }, options).tool_choice).toBeUndefined();
  });

  it('maps tool calls, results (errors marked) and images both in user content and in results', () => {
    const params = toOpenAIParams(
      {
        ...base,
        system: '',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'what is in this picture?' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'hm', signature: 's' },
              { type: 'text', text: 'Looking.' },
              { type: 'tool_use', id: 'c1', name: 'Read', input: { file_path: '/p.png' } },
              { type: 'tool_use', id: 'c2', name: 'Read', input: unparseableInput('{"file') },
            ],
          },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'c1',
                content: [
                  { type: 'text', text: 'image below' },
                  { type: 'image', source: { type: 'url', url: 'https://example.test/p.png' } },
                ],
              },
              { type: 'tool_result', tool_use_id: 'c2', content: 'Input is not valid JSON.', is_error: true },
              { type: 'text', text: 'and now?' },
            ],
          },
        ],
      },
      options,
    );
    expect(params.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is in this picture?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      },
      {
        role: 'assistant',
        content: 'Looking.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'Read', arguments: '{"file_path":"/p.png"}' } },
          { id: 'c2', type: 'function', function: { name: 'Read', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: `image below\n${IMAGE_MOVED_NOTE}` },
      { role: 'tool', tool_call_id: 'c2', content: '<tool_use_error>Input is not valid JSON.</tool_use_error>' },
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'https://example.test/p.png' } },
          { type: 'text', text: 'and now?' },
        ],
      },
    ]);
  });

  it('sends documents as text or file parts, tool references as text, and a tool-only answer with null content', () => {
    const params = toOpenAIParams(
      {
        ...base,
        system: '',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' }, title: 'N' },
            ],
          },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'ToolSearch', input: {} }] },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'c1',
                content: [
                  { type: 'tool_reference', tool_name: 'mcp__db__query' },
                  { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' } },
                ],
              },
            ],
          },
        ],
      },
      options,
    );
    expect(params.messages).toEqual([
      { role: 'user', content: 'N\n\nnotes' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ToolSearch', arguments: '{}' } }],
      },
      {
        role: 'tool',
        tool_call_id: 'c1',
        content: 'Tool mcp__db__query is now available.\n[document content follows in the next user message]',
      },
      {
        role: 'user',
        content: [{ type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'document.pdf' } }],
      },
    ]);
  });

  it('never marks an error twice', () => {
    expect(markToolError('boom')).toBe('<tool_use_error>boom</tool_use_error>');
    expect(markToolError('<tool_use_error>boom</tool_use_error>')).toBe('<tool_use_error>boom</tool_use_error>');
  });
});
