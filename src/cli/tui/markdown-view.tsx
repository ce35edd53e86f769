import { Box, Text, useStdout } from 'ink';
import { useMemo } from 'react';
import { markdownBlocks, type MarkdownBlock, type Span } from './markdown-blocks.js';
import { drawTable } from './markdown-table.js';
import { visibleText } from './visible-text.js';

function Spans(props: { readonly spans: readonly Span[]; readonly bold?: boolean; readonly underline?: boolean }) {
  return (
    <Text bold={props.bold ?? false} underline={props.underline ?? false}>
      {props.spans.map((span, index) => (
        <Text
          key={index}
          bold={span.bold ?? false}
          italic={span.italic ?? false}
          strikethrough={span.strike ?? false}
          underline={span.link ?? false}
          {...(span.code ? { color: 'cyan' } : span.link ? { color: 'blue' } : {})}
        >
          {visibleText(span.text)}
        </Text>
      ))}
    </Text>
  );
}

function ListView(props: { readonly block: Extract<MarkdownBlock, { kind: 'list' }>; readonly width: number }) {
  const { block, width } = props;
  return (
    <Box flexDirection="column">
      {block.items.map((item, index) => (
        <Box key={index} flexDirection="row">
          <Text>{block.ordered ? `${block.start + index}. ` : '• '}</Text>
          <Box flexDirection="column" flexGrow={1}>
            {item.map((child, childIndex) => (
              <BlockView key={childIndex} block={child} width={width - 3} />
            ))}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

function BlockView(props: { readonly block: MarkdownBlock; readonly width: number }) {
  const { block, width } = props;
  switch (block.kind) {
    case 'heading':
      return <Spans spans={block.spans} bold underline={block.level === 1} />;
    case 'paragraph':
      return <Spans spans={block.spans} />;
    case 'code':
      return (
        <Box flexDirection="column" paddingLeft={2}>
          {block.text.split('\n').map((line, index) => (
            <Text key={index} color="yellow">
              {visibleText(line, { newlines: 'escape' }) || ' '}
            </Text>
          ))}
        </Box>
      );
    case 'list':
      return <ListView block={block} width={width} />;
    case 'table':
      return (
        <Box flexDirection="column">
          {drawTable({ ...block, maxWidth: width }).map((line, index) => (
            <Text key={index} bold={index === 1}>
              {visibleText(line, { newlines: 'escape' })}
            </Text>
          ))}
        </Box>
      );
    case 'quote':
      return (
        <Box
          flexDirection="column"
          borderStyle="bold"
          borderTop={false}
          borderRight={false}
          borderBottom={false}
          borderColor="gray"
          paddingLeft={1}
        >
          {block.blocks.map((child, index) => (
            <BlockView key={index} block={child} width={width - 2} />
          ))}
        </Box>
      );
    case 'rule':
      return <Text dimColor>{'─'.repeat(Math.max(3, Math.min(width, 40)))}</Text>;
  }
}

/**
 * The assistant's text rendered as markdown: bold, italics, inline code, code blocks, lists,
 * tables drawn with box lines, headings, quotes. Invisible characters show by name, as in all
 * text from outside. Blocks are separated by a blank line, as in the source.
 */
export function MarkdownView(props: { readonly text: string }) {
  const { stdout } = useStdout();
  const width = Math.max(20, (stdout.columns || 80) - 1);
  // Tabs in the model's prose and code are layout, not a hidden trick: show them as spaces.
  const blocks = useMemo(() => markdownBlocks(props.text.replaceAll('\t', '    ')), [props.text]);
  return (
    <Box flexDirection="column">
      {blocks.map((block, index) => (
        <Box key={index} marginTop={index === 0 ? 0 : 1}>
          <BlockView block={block} width={width} />
        </Box>
      ))}
    </Box>
  );
}
