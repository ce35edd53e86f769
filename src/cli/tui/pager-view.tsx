import { Box, Text } from 'ink';
import type { PagerState } from './pager-state.js';
import { visibleText } from './visible-text.js';

/** The expand view: a title, one screenful of lines (each cut to the width), and where it is with the keys. */
export function PagerView(props: { readonly state: PagerState }) {
  const { title, lines, top, height } = props.state;
  const shown = lines.slice(top, top + height);
  const last = Math.min(lines.length, top + height);
  return (
    <Box flexDirection="column">
      <Text inverse bold wrap="truncate-end">
        {` ${visibleText(title, { newlines: 'escape' })} `}
      </Text>
      {shown.map((line, index) => (
        <Text key={top + index} wrap="truncate-end">
          {visibleText(line, { newlines: 'escape' }) || ' '}
        </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        lines {lines.length === 0 ? 0 : top + 1}–{last} of {lines.length} · ↑/↓ PgUp/PgDn space to scroll · q or Esc to
        close
      </Text>
    </Box>
  );
}
