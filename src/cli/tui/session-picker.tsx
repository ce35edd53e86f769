import { Box, Text } from 'ink';
import type { SessionSummary } from '../../session/index.js';
import { visibleText } from './visible-text.js';

/** The `/resume` list: sessions newest first, the highlighted one marked. */
export function SessionPicker(props: { readonly sessions: readonly SessionSummary[]; readonly selected: number }) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>Resume a session</Text>
      {props.sessions.map((session, index) => (
        <Text key={session.id} {...(index === props.selected ? { color: 'cyan', bold: true } : {})} wrap="truncate-end">
          {index === props.selected ? '❯' : ' '} {session.modified.toISOString().slice(0, 16).replace('T', ' ')}{' '}
          {session.id} {visibleText(session.firstPrompt, { newlines: 'escape' })}
        </Text>
      ))}
      <Text dimColor>↑/↓ to choose, Enter to resume, Esc to cancel</Text>
    </Box>
  );
}
