import { Text } from 'ink';
import { describeStatus } from './describe-status.js';
import type { HostStatus } from './interactive-host.js';

/** The status line under the prompt, with a hint at its end when there is one. */
export function StatusLine(props: { readonly status: HostStatus; readonly hint?: string }) {
  return (
    <Text dimColor wrap="truncate-end">
      {describeStatus(props.status)}
      {props.hint ? ` · ${props.hint}` : ''}
    </Text>
  );
}
