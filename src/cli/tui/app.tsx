import { Box, useApp } from 'ink';
import { useEffect, useReducer, useRef, useState } from 'react';
import type { ApprovalQueue } from './approval-queue.js';
import { useClock, useDialogDiff, useLoopEvents, useOverlays } from './app-hooks.js';
import { EMPTY_LINE, type LineState } from './edit-line.js';
import { pickerKeys, useInputExtras } from './input-hooks.js';
import { completionFor } from './slash-completion.js';
import { InteractionDialog } from './interaction-dialog.js';
import type { InteractiveHost } from './interactive-host.js';
import { PermissionDialog } from './permission-dialog.js';
import { EMPTY_HISTORY, type PromptHistory } from './prompt-history.js';
import { PromptInput } from './prompt-input.js';
import { RetryLine, useRetryCountdown } from './retry-line.js';
import { routeKey, type KeyRoutes } from './route-key.js';
import { SessionPicker } from './session-picker.js';
import { useStartScreen } from './start-screen.js';
import { StatusLine } from './status-line.js';
import type { Interaction, InteractionAnswer } from './terminal-interaction.js';
import { TodoPanel } from './todo-panel.js';
import { EMPTY_TRANSCRIPT, reduceTranscript } from './transcript-state.js';
import { TranscriptView } from './transcript-view.js';
import { useCommands, type Picker } from './use-commands.js';
import { useNoticeAndWarnings } from './use-host-warnings.js';
import { useStartOver } from './use-start-over.js';
import { useKeyEvents } from './use-key-events.js';
import { useLatest } from './use-latest.js';
import { usePager } from './use-pager.js';
import { useTurns } from './use-turns.js';
import type { WaitingQueue } from './waiting-queue.js';

/** Lets the code that rendered the app ask it to close (SIGTERM, SIGHUP). */
export type AppControls = { requestExit?: (code: number) => void };

/** Props of {@link App}. */
export type AppProps = {
  readonly host: InteractiveHost;
  readonly approvals: ApprovalQueue;
  /** Questions (AskUserQuestion) and plans (ExitPlanMode) waiting for the person. */
  readonly interactions: WaitingQueue<Interaction, InteractionAnswer>;
  readonly initialPrompt?: string;
  readonly controls: AppControls;
  /** Called once with the exit code, after `host.close()`. */
  readonly onExit: (code: number) => void;
};

/** The interactive terminal UI over an {@link InteractiveHost}. One input handler routes every key: dialog first, then picker, then prompt. */
export function App(props: AppProps) {
  const { host, approvals, interactions } = props;
  const { exit } = useApp();
  const [transcript, dispatch] = useReducer(reduceTranscript, EMPTY_TRANSCRIPT);
  const [line, setLine] = useLatest<LineState>(EMPTY_LINE);
  const promptHistory = useRef<PromptHistory>(EMPTY_HISTORY);
  const { pending, dialog, setDialog, asked, askState, setAskState } = useOverlays(approvals, interactions);
  const [picker, setPicker] = useLatest<Picker | undefined>(undefined);
  const [todos, setTodos] = useState(() => host.todos());
  const [hint, setHint] = useState<string | undefined>(undefined);
  const [epoch, setEpoch] = useState(0);
  const [working, setWorking] = useLatest<string | undefined>(undefined);
  const exitArmedAt = useRef<number | undefined>(undefined);
  const diffed = useRef(new Set<string>());
  const notice = useNoticeAndWarnings(dispatch, host);
  useEffect(() => host.onTodosChange((next) => setTodos(next)), [host]);
  const now = useClock(transcript.running);

  const cwd = host.status().cwd;
  const dialogDiff = useDialogDiff(pending.current, cwd);
  const header = useStartScreen(host, dispatch);
  const { countdown, onLoopEvent } = useRetryCountdown(host, useLoopEvents(dispatch, cwd, diffed));
  const { turn, closing, runTurn, background, shutdown } = useTurns({
    host,
    dispatch,
    onLoopEvent,
    notice,
    setHint,
    setWorking,
    onExit: props.onExit,
    exit,
  });
  useEffect(() => void (props.controls.requestExit = (code) => void shutdown(code)), [props.controls, shutdown]);

  const startOver = useStartOver({ dispatch, diffed, setEpoch, notice });
  const submitLine = useCommands({
    host,
    turn,
    notice,
    runTurn,
    background,
    shutdown,
    startOver,
    setPicker,
    setLine,
    setHint,
  });

  useEffect(() => {
    // As if typed: `toolplane "/review src/a.ts"` runs the command.
    if (props.initialPrompt !== undefined && props.initialPrompt.trim() !== '') submitLine(props.initialPrompt);
    // The initial prompt runs once, when the app mounts.
  }, []);

  const onPickerKey = pickerKeys({ host, setPicker, background, startOver, dispatch });
  const routes: KeyRoutes = {
    closing,
    exitArmedAt,
    shutdown,
    setHint,
    dispatch,
    approvals,
    pending,
    dialog,
    setDialog,
    interactions,
    asked,
    askState,
    setAskState,
    picker,
    onPickerKey,
    turn,
    working,
    promptHistory,
    line,
    setLine,
    submitLine,
    ...usePager(transcript),
    ...useInputExtras({ host, dispatch, cwd, diffed, setHint }),
  };
  useKeyEvents((event) => routeKey(routes, event.input, event.key));

  const overlay = dialog.current !== undefined || picker.current !== undefined || asked.current !== undefined;
  if (routes.pager.current) return <TranscriptView state={transcript} now={now} epoch={epoch} pager={routes.pager} />;
  return (
    <Box flexDirection="column">
      <TranscriptView state={transcript} now={now} epoch={epoch} {...(header && epoch === 0 ? { header } : {})} />
      <Overlays overlays={{ pending, dialog, asked, askState }} picker={picker.current} dialogDiff={dialogDiff} />
      <TodoPanel todos={todos} />
      {countdown && transcript.running ? <RetryLine countdown={countdown} now={now} /> : null}
      <PromptInput
        line={line.current}
        active={!overlay}
        running={transcript.running || working.current !== undefined}
        completion={overlay ? undefined : completionFor(line.current.value, routes)}
      />
      <StatusLine
        status={host.status()}
        {...(hint !== undefined ? { hint } : working.current ? { hint: `${working.current}…` } : {})}
      />
    </Box>
  );
}

/** The picker and the dialogs over the prompt; a permission dialog goes before a question. */
function Overlays(props: {
  readonly overlays: Pick<ReturnType<typeof useOverlays>, 'pending' | 'dialog' | 'asked' | 'askState'>;
  readonly picker: Picker | undefined;
  readonly dialogDiff: ReturnType<typeof useDialogDiff>;
}) {
  const { pending, dialog, asked, askState } = props.overlays;
  const permission =
    pending.current && dialog.current ? { pending: pending.current, state: dialog.current } : undefined;
  const question =
    !permission && asked.current && askState.current ? { asked: asked.current, state: askState.current } : undefined;
  return (
    <>
      {props.picker ? <SessionPicker sessions={props.picker.sessions} selected={props.picker.selected} /> : null}
      {permission ? (
        <PermissionDialog request={permission.pending.request} state={permission.state} diff={props.dialogDiff} />
      ) : null}
      {question ? <InteractionDialog interaction={question.asked.item} state={question.state} /> : null}
    </>
  );
}
