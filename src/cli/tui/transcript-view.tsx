import { Box, Static, Text } from 'ink';
import type { ReactNode } from 'react';
import { BatchGroup } from './batch-group.js';
import { ToolCallRow } from './tool-call-row.js';
import {
  groupEntries,
  type CallView,
  type DisplayBlock,
  type NoticeTone,
  type TranscriptState,
} from './transcript-state.js';
import { Visible } from './visible.js';

/** The Static item that stands for the header. */
const HEADER = { header: true } as const;

const TONES: Readonly<Record<NoticeTone, string>> = { info: 'gray', warning: 'yellow', error: 'red' };

function Block(props: {
  readonly block: DisplayBlock;
  readonly calls: ReadonlyMap<string, CallView>;
  readonly now: number;
}) {
  const { block, calls, now } = props;
  if (block.kind === 'batch') {
    const members = block.toolUseIds.flatMap((id) => {
      const call = calls.get(id);
      return call ? [call] : [];
    });
    return <BatchGroup batch={block.batch} calls={members} now={now} />;
  }
  const entry = block.entry;
  switch (entry.kind) {
    case 'prompt':
      return (
        <Box marginTop={1}>
          <Text color="cyan">› </Text>
          <Visible text={entry.text} />
        </Box>
      );
    case 'text':
      // Tabs in the model's prose and code are layout, not a hidden trick: show them as spaces.
      return <Visible text={entry.text.replaceAll('\t', '    ')} />;
    case 'call': {
      const call = calls.get(entry.toolUseId);
      return call ? <ToolCallRow call={call} now={now} /> : null;
    }
    case 'notice':
      return <Visible text={entry.text} color={TONES[entry.tone]} />;
  }
}

/**
 * The conversation: entries of finished turns are printed once (they scroll into the terminal's
 * history), the current turn's are redrawn as they change.
 */
export function TranscriptView(props: {
  readonly state: TranscriptState;
  readonly now: number;
  readonly epoch: number;
  /** Printed once before the conversation (the welcome panel). */
  readonly header?: ReactNode;
}) {
  const { state, now } = props;
  const settled = groupEntries(state.entries.slice(0, state.settledCount), state.calls);
  const live = groupEntries(state.entries.slice(state.settledCount), state.calls);
  const header = props.header === undefined ? [] : [HEADER];
  return (
    <>
      <Static key={props.epoch} items={[...header, ...settled.map((block, index) => ({ block, index }))]}>
        {(item) =>
          'header' in item ? (
            <Box key="header">{props.header}</Box>
          ) : (
            <Box key={item.index} flexDirection="column">
              <Block block={item.block} calls={state.calls} now={now} />
            </Box>
          )
        }
      </Static>
      <Box flexDirection="column">
        {live.map((block, index) => (
          <Block key={index} block={block} calls={state.calls} now={now} />
        ))}
      </Box>
    </>
  );
}
