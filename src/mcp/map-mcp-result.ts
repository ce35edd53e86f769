import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { MappedResult } from '../contract/tool.js';
import type { ToolResultContentBlock } from '../messages/types.js';

/** Image types the Messages API accepts in an image block; others become a text note. */
const API_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** Approximate decoded size of base64 text, for notes about binary content left out. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function binaryNote(options: { what: string; mimeType: string | undefined; data: string; uri?: string }): string {
  const where = options.uri === undefined ? '' : ` ${options.uri}`;
  return `[${options.what}${where} (${options.mimeType ?? 'unknown type'}, ${base64Bytes(options.data)} bytes) not shown: this content type cannot be passed to the model]`;
}

function mapBlock(block: ContentBlock): ToolResultContentBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      if (API_IMAGE_TYPES.has(block.mimeType)) {
        return { type: 'image', source: { type: 'base64', media_type: block.mimeType, data: block.data } };
      }
      return { type: 'text', text: binaryNote({ what: 'image', mimeType: block.mimeType, data: block.data }) };
    case 'audio':
      return { type: 'text', text: binaryNote({ what: 'audio', mimeType: block.mimeType, data: block.data }) };
    case 'resource_link': {
      const details = [block.mimeType, block.description].filter((part) => part !== undefined && part !== '');
      const suffix = details.length > 0 ? ` (${details.join('; ')})` : '';
      return {
        type: 'text',
        text: `[Resource link: ${block.name} ${block.uri}${suffix}. Read it with ReadMcpResourceTool.]`,
      };
    }
    case 'resource': {
      const resource = block.resource;
      if ('text' in resource) {
        return {
          type: 'text',
          text: `[Resource ${resource.uri}${resource.mimeType === undefined ? '' : ` (${resource.mimeType})`}]\n${resource.text}`,
        };
      }
      if (resource.mimeType !== undefined && API_IMAGE_TYPES.has(resource.mimeType)) {
        return { type: 'image', source: { type: 'base64', media_type: resource.mimeType, data: resource.blob } };
      }
      if (resource.mimeType === 'application/pdf') {
        return {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: resource.blob },
          title: resource.uri,
        };
      }
      return {
        type: 'text',
        text: binaryNote({ what: 'resource', mimeType: resource.mimeType, data: resource.blob, uri: resource.uri }),
      };
    }
  }
}

/**
 * Maps an MCP `tools/call` result to what the model receives. Text stays text; JPEG, PNG, GIF and
 * WebP images become image blocks; audio and other binary content become a text note with its type
 * and size; resource links and embedded text resources become text naming their URI; embedded PDFs
 * become document blocks. `structuredContent` is sent as JSON text when the result has no text
 * content (a server that sends both has already rendered it as text). `isError: true` is kept.
 */
export function mapMcpResult(result: CallToolResult): MappedResult {
  const blocks = result.content.map(mapBlock);
  const hasText = result.content.some((block) => block.type === 'text');
  if (!hasText && result.structuredContent !== undefined) {
    blocks.unshift({ type: 'text', text: JSON.stringify(result.structuredContent, null, 2) });
  }
  const isError = result.isError === true;
  if (blocks.length === 0) return isError ? { content: '', isError } : { content: '' };
  if (blocks.length === 1 && blocks[0]?.type === 'text') {
    return isError ? { content: blocks[0].text, isError } : { content: blocks[0].text };
  }
  return isError ? { content: blocks, isError } : { content: blocks };
}

/** A tool result that carries a failure message for the model, in the shape a server would send. */
export function mcpErrorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * Maps whatever a call produced for the model: an MCP result (the usual case, also when a
 * PostToolUse hook replaced it with one), else text as it is and anything else as JSON text.
 */
export function mapMcpOutput(output: unknown): MappedResult {
  if (typeof output === 'string') return { content: output };
  const looksLikeResult =
    typeof output === 'object' && output !== null && Array.isArray((output as { content?: unknown }).content);
  const parsed = looksLikeResult ? CallToolResultSchema.safeParse(output) : undefined;
  if (parsed?.success === true) return mapMcpResult(parsed.data);
  return { content: JSON.stringify(output, null, 2) ?? '' };
}
