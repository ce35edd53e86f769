import { Box, Text } from 'ink';
import type { DiffLine } from './file-change-diff.js';
import { plural } from './plural.js';
import { visibleText } from './visible-text.js';

const MARKS: Readonly<Record<DiffLine['kind'], string>> = { add: '+', remove: '-', context: ' ' };
const COLORS: Readonly<Record<DiffLine['kind'], string | undefined>> = {
  add: 'green',
  remove: 'red',
  context: undefined,
};

/** An Edit's or Write's change as +/- lines; at most `maxLines`, then how many were left out. */
export function DiffView(props: { readonly lines: readonly DiffLine[]; readonly maxLines: number }) {
  const shown = props.lines.slice(0, props.maxLines);
  const hidden = props.lines.length - shown.length;
  return (
    <Box flexDirection="column" paddingLeft={4}>
      {shown.map((line, index) => {
        const color = COLORS[line.kind];
        return (
          <Text key={index} {...(color !== undefined ? { color } : { dimColor: true })}>
            {MARKS[line.kind]} {visibleText(line.text, { newlines: 'escape' })}
          </Text>
        );
      })}
      {hidden > 0 ? <Text dimColor>… {plural(hidden, 'more line', 'more lines')}</Text> : null}
    </Box>
  );
}
