import { Box, Text } from 'ink';
import type { CallPhase, CallView } from './transcript-state.js';
import { DiffView } from './diff-view.js';
import { formatElapsed } from './format-elapsed.js';
import { visibleText } from './visible-text.js';

const PHASES: Readonly<Record<CallPhase, { readonly mark: string; readonly label: string; readonly color: string }>> = {
  queued: { mark: '○', label: 'queued', color: 'gray' },
  'awaiting-approval': { mark: '?', label: 'waiting for approval', color: 'yellow' },
  running: { mark: '◐', label: 'running', color: 'cyan' },
  done: { mark: '✔', label: 'done', color: 'green' },
  failed: { mark: '✘', label: 'failed', color: 'red' },
  denied: { mark: '⊘', label: 'denied', color: 'red' },
  cancelled: { mark: '⊘', label: 'cancelled', color: 'gray' },
  interrupted: { mark: '■', label: 'interrupted', color: 'yellow' },
};

/** One tool call: status, name, summary, elapsed time, live output tail, and its diff for Edit/Write. */
export function ToolCallRow(props: { readonly call: CallView; readonly now: number }) {
  const { call, now } = props;
  const phase = PHASES[call.phase];
  const time =
    call.phase === 'running' && call.startedAt !== undefined
      ? ` ${formatElapsed(now - call.startedAt)}`
      : call.durationMs !== undefined && call.phase !== 'queued'
        ? ` ${formatElapsed(call.durationMs)}`
        : '';
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={phase.color}>{phase.mark} </Text>
        <Text bold>{visibleText(call.toolName, { newlines: 'escape' })}</Text>
        <Text> {visibleText(call.summary, { newlines: 'escape' })}</Text>
        <Text color={phase.color}>
          {' '}
          [{phase.label}
          {time}]
        </Text>
      </Text>
      {call.detail !== undefined && call.phase !== 'done' ? (
        <Box paddingLeft={2}>
          <Text dimColor>{visibleText(call.detail)}</Text>
        </Box>
      ) : null}
      {call.phase === 'running' && call.outputTail.length > 0 ? (
        <Box flexDirection="column" paddingLeft={2}>
          {call.outputTail.map((line, index) => (
            <Text key={index} dimColor>
              │ {visibleText(line, { newlines: 'escape' })}
            </Text>
          ))}
        </Box>
      ) : null}
      {call.diff !== undefined && call.phase !== 'awaiting-approval' ? (
        <DiffView lines={call.diff} maxLines={20} />
      ) : null}
    </Box>
  );
}
