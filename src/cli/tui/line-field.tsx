import { Text } from 'ink';
import type { LineState } from './edit-line.js';
import { visibleText } from './visible-text.js';

/** A one-line field with its cursor drawn as an inverse cell. */
export function LineField(props: {
  readonly line: LineState;
  readonly active: boolean;
  readonly placeholder?: string;
}) {
  const { value, cursor } = props.line;
  if (!props.active)
    return <Text dimColor>{visibleText(value, { newlines: 'escape' }) || props.placeholder || ''}</Text>;
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
