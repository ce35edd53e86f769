import { Box, Text } from 'ink';
import type { LineState } from './edit-line.js';
import { cursorLines } from './text-lines.js';
import { visibleText } from './visible-text.js';

/**
 * A multi-line field: each line of its text on its own row, the cursor as an inverse cell, and
 * the placeholder when it is empty. Inactive, it shows the text dimmed.
 */
export function TextArea(props: { readonly line: LineState; readonly active: boolean; readonly placeholder?: string }) {
  const { line, active } = props;
  if (line.value === '') {
    return (
      <Text>
        {active ? <Text inverse> </Text> : null}
        <Text dimColor>{props.placeholder ?? ''}</Text>
      </Text>
    );
  }
  const { lines, row, column } = cursorLines(line);
  return (
    <Box flexDirection="column">
      {lines.map((text, index) => {
        if (!active || index !== row)
          return (
            <Text key={index} dimColor={!active}>
              {visibleText(text, { newlines: 'escape' }) || ' '}
            </Text>
          );
        const at = text.slice(column, column + 1);
        return (
          <Text key={index}>
            {visibleText(text.slice(0, column), { newlines: 'escape' })}
            <Text inverse>{at === '' ? ' ' : visibleText(at, { newlines: 'escape' })}</Text>
            {visibleText(text.slice(column + 1), { newlines: 'escape' })}
          </Text>
        );
      })}
    </Box>
  );
}
