import { Box, Text } from 'ink';
import type { LineState } from './edit-line.js';
import { visibleText } from './visible-text.js';

/** A one-line field with its cursor drawn as an inverse cell. */
export function LineField(props: { readonly line: LineState; readonly active: boolean; readonly placeholder?: string }) {
  const { value, cursor } = props.line;
  if (!props.active) return <Text dimColor>{visibleText(value, { newlines: 'escape' }) || props.placeholder || ''}</Text>;
  if (value === '' && props.placeholder) {
    return (
      <Text>
        <Text inverse> </Text>
        <Text dimColor>{props.placeholder}</Text>
      </Text>
    );
  }
  const before = visibleText(value.slice(0, cursor), { newlines: 'escape' });
  const at = value.slice(cursor, cursor + 1);
  const after = visibleText(value.slice(cursor + 1), { newlines: 'escape' });
  return (
    <Text>
      {before}
      <Text inverse>{at === '' ? ' ' : visibleText(at, { newlines: 'escape' })}</Text>
      {after}
    </Text>
  );
}

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
