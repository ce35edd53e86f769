import { Box, Text } from 'ink';
import type { SlashCompletion } from './slash-completion.js';

/** The commands matching what is typed, under the prompt: the selected one highlighted, each with its help. */
export function SlashChoices(props: { readonly completion: SlashCompletion }) {
  const { choices, selected } = props.completion;
  const width = Math.max(...choices.map((choice) => choice.name.length)) + 2;
  return (
    <Box flexDirection="column" paddingX={2}>
      {choices.map((choice, index) => (
        <Text key={choice.name} wrap="truncate-end">
          <Text {...(index === selected ? { color: 'cyan', bold: true } : {})}>
            {index === selected ? '❯ ' : '  '}
            {`/${choice.name}`.padEnd(width)}
          </Text>
          <Text dimColor>{choice.help}</Text>
        </Text>
      ))}
      <Text dimColor>Tab to complete, ↑/↓ to choose, Enter to run</Text>
    </Box>
  );
}
