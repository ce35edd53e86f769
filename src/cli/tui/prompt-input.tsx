import { Box, Text } from 'ink';
import type { LineState } from './edit-line.js';
import { LineField } from './line-field.js';

/** The prompt box. */
export function PromptInput(props: { readonly line: LineState; readonly active: boolean; readonly running: boolean }) {
  return (
    <Box borderStyle="round" borderColor={props.active ? 'white' : 'gray'} paddingX={1}>
      <Text color="cyan">› </Text>
      <LineField
        line={props.line}
        active={props.active}
        placeholder={props.running ? 'working… Esc to interrupt' : 'Ask, or /help for commands'}
      />
    </Box>
  );
}
