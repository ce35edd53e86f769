import { Box, Text } from 'ink';
import type { LineState } from './edit-line.js';
import { SlashChoices } from './slash-choices.js';
import type { SlashCompletion } from './slash-completion.js';
import { TextArea } from './text-area.js';

/**
 * The prompt box: the prompt's lines, with the cursor while it has the keys, and under it the
 * slash commands that match what is typed.
 */
export function PromptInput(props: {
  readonly line: LineState;
  readonly active: boolean;
  readonly running: boolean;
  readonly completion?: SlashCompletion | undefined;
}) {
  return (
    <Box flexDirection="column">
      <Box borderStyle="round" borderColor={props.active ? 'white' : 'gray'} paddingX={1}>
        <Text color="cyan">› </Text>
        <TextArea
          line={props.line}
          active={props.active}
          placeholder={props.running ? 'working… Esc to interrupt' : 'Ask, or /help for commands'}
        />
      </Box>
      {props.completion ? <SlashChoices completion={props.completion} /> : null}
    </Box>
  );
}
