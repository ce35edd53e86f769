import { Box, Text } from 'ink';
import { PLAN_CHOICES, type InteractionState } from './interaction-state.js';
import { LineField } from './line-field.js';
import type { Interaction } from './terminal-interaction.js';
import { Visible } from './visible.js';

function Choice(props: {
  readonly index: number;
  readonly selected: boolean;
  readonly label: string;
  readonly checked?: boolean;
  readonly description?: string;
}) {
  const box = props.checked === undefined ? '' : props.checked ? '[x] ' : '[ ] ';
  return (
    <Box flexDirection="column">
      <Text {...(props.selected ? { color: 'cyan', bold: true } : {})}>
        {props.selected ? '❯' : ' '} {props.index + 1}. {box}
        <Visible text={props.label} newlines="escape" />
      </Text>
      {props.description ? (
        <Box paddingLeft={6}>
          <Visible text={props.description} dimColor />
        </Box>
      ) : null}
    </Box>
  );
}

/** The dialog for AskUserQuestion (one question at a time) and ExitPlanMode (the plan to approve). Rendering only. */
export function InteractionDialog(props: { readonly interaction: Interaction; readonly state: InteractionState }) {
  const { interaction, state } = props;
  const question = interaction.kind === 'questions' ? interaction.request.questions[state.questionIndex] : undefined;
  return (
    <Box flexDirection="column" borderStyle="double" borderColor="magenta" paddingX={1}>
      {interaction.kind === 'plan' ? (
        <>
          <Text bold color="magenta">
            The model has a plan. Start on it?
          </Text>
          <Box paddingLeft={2} marginBottom={1}>
            <Visible text={interaction.request.plan} />
          </Box>
          {PLAN_CHOICES.map((choice, index) => (
            <Choice key={index} index={index} selected={state.selected === index} label={choice.label} />
          ))}
        </>
      ) : question ? (
        <>
          <Text bold color="magenta">
            Question {state.questionIndex + 1} of {interaction.request.questions.length} ·{' '}
            <Visible text={question.header} newlines="escape" />
          </Text>
          <Visible text={question.question} />
          {question.options.map((option, index) => (
            <Choice
              key={index}
              index={index}
              selected={state.selected === index}
              label={option.label}
              description={option.description}
              {...(question.multiSelect ? { checked: state.checked.includes(index) } : {})}
            />
          ))}
          <Choice
            index={question.options.length}
            selected={state.selected === question.options.length}
            label="Other: type my own answer"
          />
        </>
      ) : null}
      {state.mode === 'text' ? (
        <Box>
          <Text color="cyan">{interaction.kind === 'plan' ? 'what to change: ' : 'your answer: '}</Text>
          <LineField line={state.line} active />
        </Box>
      ) : null}
      {state.error !== undefined ? <Text color="red">{state.error}</Text> : null}
      <Text dimColor>
        {state.mode === 'text'
          ? 'Enter to send, Esc to go back'
          : question?.multiSelect
            ? '↑/↓ or a number to move, Space to check, Enter to confirm, Esc to decline'
            : `↑/↓ or a number to choose, Enter to confirm, Esc to ${interaction.kind === 'plan' ? 'keep planning' : 'decline'}`}
      </Text>
    </Box>
  );
}
