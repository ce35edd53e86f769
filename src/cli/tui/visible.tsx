import { Text } from 'ink';
import { visibleSegments } from './visible-text.js';

/** Text from outside (model, tools, commands) with its invisible characters shown as highlighted names. */
export function Visible(props: {
  readonly text: string;
  readonly newlines?: 'keep' | 'escape';
  readonly color?: string;
  readonly dimColor?: boolean;
}) {
  const segments = visibleSegments(props.text, { newlines: props.newlines ?? 'keep' });
  return (
    <Text {...(props.color !== undefined ? { color: props.color } : {})} dimColor={props.dimColor ?? false}>
      {segments.map((segment, index) =>
        segment.escaped ? (
          <Text key={index} color="yellow" inverse>
            {segment.text}
          </Text>
        ) : (
          segment.text
        ),
      )}
    </Text>
  );
}
