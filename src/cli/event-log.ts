import { describeReason } from '../contract/permission.js';
import type { LoopEvent } from '../session/index.js';
import type { ToolResultBlock } from '../messages/types.js';
import { describeRetry } from './describe-retry.js';
import { visibleText } from './tui/visible-text.js';

function firstLine(result: ToolResultBlock): string {
  const text =
    typeof result.content === 'string'
      ? result.content
      : result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join(' ');
  const line =
    text
      .replace(/<\/?tool_use_error>/g, '')
      .split('\n')
      .find((candidate) => candidate.trim() !== '') ?? '';
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
        if (event.behavior !== 'ask')
          write(`    ${event.behavior === 'allow' ? 'allowed' : 'denied'}: ${describeReason(event.reason)}`);
        else write(`    needs approval: ${describeReason(event.reason)}`);
        break;
      case 'tool-call-end': {
        const { record } = event;
        const ok = record.outcome.status === 'success' && !record.outcome.isError;
        write(
          `  ${ok ? '✓' : '✗'} ${record.toolName} ${record.outcome.status} (${event.durationMs.toFixed(0)} ms): ${visibleText(firstLine(record.result))}`,
        );
        break;
      }
      case 'compact':
        write(`[compacted ${event.removedMessages} messages]`);
        break;
      case 'notice':
        write(`note: ${event.message}`);
        break;
      case 'retry':
        write(`note: ${describeRetry(event)}`);
        break;
      case 'error':
        write(`error: ${event.error.message}`);
        break;
      default:
        break;
    }
  };
}
