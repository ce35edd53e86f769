import { Box, Text } from 'ink';
import { CALL_PHASES } from './call-phases.js';
import type { CallView } from './transcript-state.js';
import { ToolCallRow } from './tool-call-row.js';
import { COLLAPSE_AT, SHOWN_APART, summarizeBatch } from './summarize-batch.js';
import { plural } from './plural.js';
import { visibleText } from './visible-text.js';

/** A large batch as one row: what ran and how it went, then the calls that need a look of their own. */
function CollapsedBatch(props: { readonly calls: readonly CallView[]; readonly now: number }) {
  const summary = summarizeBatch(props.calls);
  const { mark, color } =
    CALL_PHASES[summary.phase === 'running' || summary.phase === 'failed' ? summary.phase : 'done'];
  const shown = summary.apart.slice(0, SHOWN_APART);
  const hidden = summary.apart.length - shown.length;
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={summary.phase === 'interrupted' ? 'yellow' : color}>{mark} </Text>
        <Text bold>{visibleText(summary.title, { newlines: 'escape' })}</Text>
        <Text> in parallel </Text>
        <Text color={color}>[{summary.counts}]</Text>
        <Text dimColor> (ctrl+o to expand)</Text>
      </Text>
      {shown.length > 0 ? (
        <Box flexDirection="column" paddingLeft={2}>
          {shown.map((call) => (
            <ToolCallRow key={call.toolUseId} call={call} now={props.now} />
          ))}
          {hidden > 0 ? <Text dimColor>+{plural(hidden, 'more call')} to look at (ctrl+o to expand)</Text> : null}
        </Box>
      ) : null}
    </Box>
  );
}

/**
 * The calls of one parallel batch: a few are drawn inside one frame, row by row; from
 * {@link COLLAPSE_AT} calls on, one summary row stands for them all (ctrl+o lists each).
 */
export function BatchGroup(props: { readonly calls: readonly CallView[]; readonly now: number }) {
  if (props.calls.length >= COLLAPSE_AT) return <CollapsedBatch calls={props.calls} now={props.now} />;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="blue" paddingX={1}>
      <Text color="blue">{props.calls.length} calls in parallel</Text>
      {props.calls.map((call) => (
        <ToolCallRow key={call.toolUseId} call={call} now={props.now} />
      ))}
    </Box>
  );
}
