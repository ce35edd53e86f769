import { describeReason } from '../contract/permission.js';
import type { LoopEvent } from '../loop/types.js';
import type { ToolResultBlock } from '../messages/types.js';

/** Makes control, bidi and zero-width characters visible, so what is shown is what runs. */
export function visibleText(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '\n' || char === '\t') out += char;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if ((code >= 0x200b && code <= 0x200f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069) || code === 0xfeff || code === 0x2028 || code === 0x2029 || code === 0x00ad) {
      out += `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
    } else out += char;
  }
  return out;
}

function firstLine(result: ToolResultBlock): string {
  const text = typeof result.content === 'string' ? result.content : result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join(' ');
  const line = text.replace(/<\/?tool_use_error>/g, '').split('\n').find((candidate) => candidate.trim() !== '') ?? '';
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
}

/**
 * A readable, line-based log of a run for people (the demo, `--debug`): turns, the assistant's
 * text, each call with its batch, decision and outcome. What the model sees is never printed
 * as-is: results are summarized to their first line.
 */
export function createEventLog(write: (line: string) => void) {
  const summaries = new Map<string, string>();
  let pendingText = '';
  const flushText = () => {
    if (pendingText.trim()) write(`assistant: ${visibleText(pendingText.trim())}`);
    pendingText = '';
  };
  return (event: LoopEvent): void => {
    if (event.type !== 'text-delta' && event.type !== 'assistant-message') flushText();
    switch (event.type) {
      case 'text-delta':
        pendingText += event.text;
        break;
      case 'request-start':
        write(`\n── turn ${event.turn} (${event.request.tools.length} tools in the request)`);
        break;
      case 'assistant-message':
        flushText();
        break;
      case 'tool-call-queue':
        summaries.set(event.toolUseId, event.summary);
        break;
      case 'tool-call-start':
        write(`  ▶ [batch ${event.batch}] ${event.toolName} ${visibleText(summaries.get(event.toolUseId) ?? '')}`);
        break;
      case 'permission-decision':
        if (event.behavior !== 'ask') write(`    ${event.behavior === 'allow' ? 'allowed' : 'denied'}: ${describeReason(event.reason)}`);
        else write(`    needs approval: ${describeReason(event.reason)}`);
        break;
      case 'tool-call-end': {
        const { record } = event;
        const ok = record.outcome.status === 'success' && !record.outcome.isError;
        write(`  ${ok ? '✓' : '✗'} ${record.toolName} ${record.outcome.status} (${event.durationMs.toFixed(0)} ms): ${visibleText(firstLine(record.result))}`);
        break;
      }
      case 'compact':
        write(`[compacted ${event.removedMessages} messages]`);
        break;
      case 'notice':
        write(`note: ${event.message}`);
        break;
      case 'error':
        write(`error: ${event.error.message}`);
        break;
      default:
        break;
    }
  };
}
