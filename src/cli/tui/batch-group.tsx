import { Box, Text } from 'ink';
import type { CallView } from './transcript-state.js';
import { ToolCallRow } from './tool-call-row.js';

/** The calls of one parallel batch, drawn inside one frame. */
export function BatchGroup(props: {
  readonly batch: number;
  readonly calls: readonly CallView[];
  readonly now: number;
}) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="blue" paddingX={1}>
      <Text color="blue">
        parallel batch {props.batch} · {props.calls.length} calls
      </Text>
      {props.calls.map((call) => (
        <ToolCallRow key={call.toolUseId} call={call} now={props.now} />
      ))}
    </Box>
  );
}
