import { Box, Text } from 'ink';
import type { ApprovalRequest } from '../../contract/gates.js';
import { describeReason } from '../../contract/permission.js';
import type { DialogState } from './dialog-state.js';
import { DiffView } from './diff-view.js';
import type { DiffLine } from './file-change-diff.js';
import { LineField } from './prompt-input.js';
import { Visible } from './visible.js';

/** The exact command of a shell-like input, when it has one. */
export function commandOf(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const command = (input as Record<string, unknown>)['command'];
  return typeof command === 'string' ? command : undefined;
}

function toolLabel(request: ApprovalRequest): string {
  try {
    return request.tool.userFacingName(request.input);
  } catch {
    return request.tool.name;
  }
}

/**
 * The permission dialog: the tool, the whole command (or the input) with invisible characters
 * made visible, why it asks, the change for Edit/Write, and every option. Rendering only; keys
 * go through `stepDialog`.
 */
export function PermissionDialog(props: { readonly request: ApprovalRequest; readonly state: DialogState; readonly diff: readonly DiffLine[] | undefined }) {
  const { request, state } = props;
  const command = commandOf(request.input);
  return (
    <Box flexDirection="column" borderStyle="double" borderColor="yellow" paddingX={1}>
      <Text bold color="yellow">
        Permission needed: {toolLabel(request)}
      </Text>
      <Box flexDirection="column">
        {command !== undefined ? (
          <>
            <Text dimColor>Command (exact):</Text>
            <Box paddingLeft={2}>
              <Visible text={command} />
            </Box>
          </>
        ) : (
          <>
            <Text dimColor>Input:</Text>
            <Box paddingLeft={2}>
              <Visible text={props.diff === undefined ? (JSON.stringify(request.input, null, 2) ?? 'undefined') : request.summary} />
            </Box>
          </>
        )}
      </Box>
      {props.diff !== undefined ? <DiffView lines={props.diff} maxLines={30} /> : null}
      <Text>
        <Text dimColor>Why it asks: </Text>
        <Visible text={describeReason(request.reason)} />
      </Text>
      {request.message !== '' ? <Visible text={request.message} dimColor /> : null}
      <Box flexDirection="column" marginTop={1}>
        {state.options.map((option, index) => {
          const selected = state.selected === index;
          return (
            <Box key={option.key} flexDirection="column">
              <Text {...(selected ? { color: 'cyan', bold: true } : {})}>
                {selected ? '❯' : ' '} {option.key}. {option.label}
              </Text>
              {option.kind === 'allow-always' ? (
                <Box paddingLeft={6}>
                  <Visible text={option.detail} dimColor />
                </Box>
              ) : null}
            </Box>
          );
        })}
      </Box>
      {state.mode === 'edit' ? (
        <Box>
          <Text color="cyan">input JSON: </Text>
          <LineField line={state.line} active />
        </Box>
      ) : null}
      {state.mode === 'deny-message' ? (
        <Box>
          <Text color="cyan">message for the model: </Text>
          <LineField line={state.line} active placeholder="(optional) why, or what to do instead" />
        </Box>
      ) : null}
      {state.error !== undefined ? <Text color="red">{state.error}</Text> : null}
      <Text dimColor>
        {state.mode === 'choose' ? '↑/↓ or a number to choose, Enter to confirm, Esc to deny' : 'Enter to send, Esc to go back'}
      </Text>
    </Box>
  );
}
