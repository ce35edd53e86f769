import { Box, Text } from 'ink';
import type { WelcomeContent } from './describe-welcome.js';
import { Visible } from './visible.js';

/** The panel printed once above the conversation when the UI starts. */
export function WelcomePanel(props: { readonly content: WelcomeContent }) {
  const { content } = props;
  const width = Math.max(...content.rows.map((row) => row.label.length));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold color="cyan">
        {content.title}
      </Text>
      {content.rows.map((row) => (
        <Box key={row.label}>
          <Text dimColor>{row.label.padEnd(width + 2)}</Text>
          <Visible text={row.value} />
        </Box>
      ))}
      <Text dimColor>{content.hint}</Text>
    </Box>
  );
}
