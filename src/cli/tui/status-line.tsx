import { Box, Text } from 'ink';
import { describeStatus } from './describe-status.js';
import type { HostStatus } from './interactive-host.js';

/** The status line under the prompt, and above it a hint (exit, interrupt) when there is one. */
export function StatusLine(props: { readonly status: HostStatus; readonly hint?: string }) {
  return (
    <Box flexDirection="column">
      {props.hint ? <Text color="yellow">{props.hint}</Text> : null}
      <Text dimColor wrap="truncate-end">
        {describeStatus(props.status)}
      </Text>
    </Box>
  );
}
