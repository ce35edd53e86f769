import { Box, Text } from 'ink';
import type { ApprovalRequest } from '../../contract/gates.js';
import { describeReason } from '../../contract/permission.js';
import type { DialogState } from './dialog-state.js';
import { DiffView } from './diff-view.js';
import type { DiffLine } from './file-change-diff.js';
import { LineField } from './line-field.js';
import { TextArea } from './text-area.js';
import { Visible } from './visible.js';
import { visibleText } from './visible-text.js';

/** A string field of an input, when the input is an object that has one. */
function stringField(input: unknown, name: string): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** What the dialog shows of the input: the exact command, the file a diff changes, or the whole input as JSON. */
function subjectOf(request: ApprovalRequest, hasDiff: boolean): { readonly title: string; readonly text: string } {
  const command = stringField(request.input, 'command');
  if (command !== undefined) return { title: 'Command (exact):', text: command };
  const filePath = stringField(request.input, 'file_path');
  if (hasDiff && filePath !== undefined) return { title: 'File:', text: filePath };
  return { title: 'Input:', text: JSON.stringify(request.input, null, 2) ?? 'undefined' };
}

function toolLabel(request: ApprovalRequest): string {
  let label: string;
  try {
    label = request.tool.userFacingName(request.input);
  } catch {
    label = request.tool.name;
  }
  return visibleText(label, { newlines: 'escape' });
}

/**
 * The permission dialog: the tool, the whole command (or the input) with invisible characters
 * made visible, why it asks, the change for Edit/Write, and every option. Rendering only; keys
 * go through `stepDialog`.
 */
export function PermissionDialog(props: {
  readonly request: ApprovalRequest;
  readonly state: DialogState;
  readonly diff: readonly DiffLine[] | undefined;
}) {
  const { request, state } = props;
  const subject = subjectOf(request, props.diff !== undefined);
  const reason = describeReason(request.reason);
  const unsandboxed = request.reason.kind === 'safety' && request.reason.message.startsWith('runs outside the sandbox');
  return (
    <Box flexDirection="column" borderStyle="double" borderColor="yellow" paddingX={1}>
      <Text bold color="yellow">
        Permission needed: {toolLabel(request)}
      </Text>
      {unsandboxed ? (
        <Text bold color="red">
          This command would run OUTSIDE the sandbox, with your full access to your files, network and credentials.
          Allow it only for this exact command.
        </Text>
      ) : null}
      <Text dimColor>{subject.title}</Text>
      <Box paddingLeft={2}>
        <Visible text={subject.text} />
      </Box>
      {props.diff !== undefined ? <DiffView lines={props.diff} maxLines={30} /> : null}
      <Text>
        <Text dimColor>Why it asks: </Text>
        <Visible text={reason} />
      </Text>
      {request.message !== '' && request.message !== reason ? <Visible text={request.message} dimColor /> : null}
      <Box flexDirection="column" marginTop={1}>
        {state.options.map((option, index) => {
          const selected = state.selected === index;
          return (
            <Box key={option.key} flexDirection="column">
              <Text {...(selected ? { color: 'cyan', bold: true } : {})}>
                {selected ? '❯' : ' '} {option.key}. {option.label}
              </Text>
              {option.kind === 'allow-always' ? (
                <Box paddingLeft={6} flexDirection="column">
                  <Visible text={option.detail} dimColor />
                  {option.allowsAnyCode !== undefined ? (
                    <Text color="red">
                      ⚠ this rule allows any code: {visibleText(option.allowsAnyCode, { newlines: 'escape' })}
                    </Text>
                  ) : null}
                </Box>
              ) : null}
            </Box>
          );
        })}
      </Box>
      {state.mode === 'edit' ? (
        <Box flexDirection="column">
          <Text color="cyan">{state.editing === 'command' ? 'command:' : 'input JSON:'}</Text>
          <Box paddingLeft={2}>
            <TextArea line={state.line} active />
          </Box>
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
        {state.mode === 'choose'
          ? '↑/↓ or a number to choose, Enter to confirm, Esc to deny'
          : state.mode === 'edit'
            ? 'Enter to send, Ctrl+J or \\ then Enter for a new line, Esc to go back'
            : 'Enter to send, Esc to go back'}
      </Text>
    </Box>
  );
}
