import { describe, expect, it } from 'vitest';
import { mapMcpOutput, mapMcpResult, mcpErrorResult } from './map-mcp-result.js';

const PNG = 'iVBORw0KGgo=';

describe('mapMcpResult', () => {
  it('passes a single text block as a string', () => {
    expect(mapMcpResult({ content: [{ type: 'text', text: 'hi' }] })).toEqual({ content: 'hi' });
  });

  it('maps API image types to image blocks and others to a note', () => {
    expect(mapMcpResult({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] })).toEqual({
      content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }],
    });
    expect(mapMcpResult({ content: [{ type: 'image', data: 'AAAA', mimeType: 'image/tiff' }] }).content).toBe(
      '[image (image/tiff, 3 bytes) not shown: this content type cannot be passed to the model]',
    );
  });

  it('turns audio into a note with its type and size', () => {
    expect(mapMcpResult({ content: [{ type: 'audio', data: 'AAAAAAAA', mimeType: 'audio/wav' }] }).content).toMatch(
      /^\[audio \(audio\/wav, 6 bytes\) not shown/,
    );
  });

  it('renders resource links and embedded resources as text naming their URI', () => {
    expect(
      mapMcpResult({ content: [{ type: 'resource_link', uri: 'r://1', name: 'one', mimeType: 'text/plain' }] }).content,
    ).toBe('[Resource link: one r://1 (text/plain). Read it with ReadMcpResourceTool.]');
    expect(mapMcpResult({ content: [{ type: 'resource', resource: { uri: 'r://1', text: 'body' } }] }).content).toBe(
      '[Resource r://1]\nbody',
    );
    expect(
      mapMcpResult({
        content: [{ type: 'resource', resource: { uri: 'r://b', mimeType: 'application/zip', blob: 'AAAA' } }],
      }).content,
    ).toMatch(/^\[resource r:\/\/b \(application\/zip, 3 bytes\) not shown/);
  });

  it('maps embedded images and PDFs to image and document blocks', () => {
    expect(
      mapMcpResult({ content: [{ type: 'resource', resource: { uri: 'r://i', mimeType: 'image/gif', blob: PNG } }] })
        .content,
    ).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/gif', data: PNG } }]);
    expect(
      mapMcpResult({
        content: [{ type: 'resource', resource: { uri: 'r://p', mimeType: 'application/pdf', blob: 'JVBE' } }],
      }).content,
    ).toEqual([
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' }, title: 'r://p' },
    ]);
  });

  it('sends structured content as JSON only when there is no text', () => {
    expect(mapMcpResult({ content: [], structuredContent: { a: 1 } }).content).toBe('{\n  "a": 1\n}');
    expect(mapMcpResult({ content: [{ type: 'text', text: 'a is 1' }], structuredContent: { a: 1 } }).content).toBe(
      'a is 1',
    );
  });

  it('keeps isError, and maps no content to empty text', () => {
    expect(mapMcpResult({ content: [{ type: 'text', text: 'bad' }], isError: true })).toEqual({
      content: 'bad',
      isError: true,
    });
    expect(mapMcpResult({ content: [] })).toEqual({ content: '' });
    expect(mapMcpResult(mcpErrorResult('down'))).toEqual({ content: 'down', isError: true });
  });

  it('keeps several blocks in order', () => {
    const mapped = mapMcpResult({
      content: [
        { type: 'text', text: 'a' },
        { type: 'image', data: PNG, mimeType: 'image/jpeg' },
      ],
    });
    expect(Array.isArray(mapped.content) && mapped.content.map((block) => block.type)).toEqual(['text', 'image']);
  });
});

describe('mapMcpOutput', () => {
  it('maps what a hook put in place of the result: an MCP result, text, or other JSON', () => {
    expect(mapMcpOutput({ content: [{ type: 'text', text: 'x' }], isError: true })).toEqual({
      content: 'x',
      isError: true,
    });
    expect(mapMcpOutput('replaced')).toEqual({ content: 'replaced' });
    expect(mapMcpOutput({ other: 1 })).toEqual({ content: '{\n  "other": 1\n}' });
    expect(mapMcpOutput(undefined)).toEqual({ content: '' });
  });
});
