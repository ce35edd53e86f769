import { Box, Text } from 'ink';
import type { CallPhase, CallView } from './transcript-state.js';
import { CALL_PHASES } from './call-phases.js';
import { callPreview } from './call-preview.js';
import { DiffView } from './diff-view.js';
import { formatElapsed } from './format-elapsed.js';
import { plural } from './plural.js';
import { visibleText } from './visible-text.js';

// Phases whose time is how long the call ran; a denied or cancelled call never ran.
const TIMED: ReadonlySet<CallPhase> = new Set(['done', 'failed', 'interrupted']);

/** The preview under a row ({@link callPreview}): output or error lines, then how many more, then a saved file. */
function CallPreviewLines(props: { readonly call: CallView }) {
  const preview = callPreview(props.call);
  if (preview === undefined) return null;
  const color = preview.tone === 'error' ? 'red' : undefined;
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {preview.lines.map((line, index) => (
        <Text key={index} wrap="truncate-end" {...(color !== undefined ? { color } : { dimColor: true })}>
          │ {visibleText(line, { newlines: 'escape' })}
        </Text>
      ))}
      {preview.more > 0 ? <Text dimColor>│ +{plural(preview.more, 'line')} (ctrl+o to expand)</Text> : null}
      {preview.saved !== undefined ? (
        <Text color="yellow">│ {visibleText(preview.saved, { newlines: 'escape' })}</Text>
      ) : null}
    </Box>
  );
}

/**
 * One tool call: status, name, summary, elapsed time, then its live output tail, result preview or
 * error, and its diff for Edit/Write.
 */
export function ToolCallRow(props: { readonly call: CallView; readonly now: number }) {
  const { call, now } = props;
  const phase = CALL_PHASES[call.phase];
  const time =
    call.phase === 'running' && call.startedAt !== undefined
      ? ` ${formatElapsed(now - call.startedAt)}`
      : call.durationMs !== undefined && TIMED.has(call.phase)
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
      {call.detail !== undefined && call.phase !== 'done' && call.phase !== 'failed' ? (
        <Box paddingLeft={2}>
          <Text dimColor>{visibleText(call.detail)}</Text>
        </Box>
      ) : null}
      <CallPreviewLines call={call} />
      {call.diff !== undefined && call.phase !== 'awaiting-approval' ? (
        <DiffView lines={call.diff} maxLines={20} />
      ) : null}
    </Box>
  );
}
