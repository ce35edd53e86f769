import { Box, useApp, useInput, useStdout } from 'ink';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { LoopEvent, QueryResult } from '../../session/index.js';
import type { SessionSummary } from '../../session/index.js';
import type { ApprovalQueue, PendingApproval } from './approval-queue.js';
import { openDialog, stepDialog, type DialogState } from './dialog-state.js';
import { EMPTY_LINE, editLine, lineOf, type KeyPress, type LineState } from './edit-line.js';
import { fileChangeDiff, readCurrentText } from './file-change-diff.js';
import type { InteractiveHost } from './interactive-host.js';
import { parseSlashCommand, slashHelp, type SlashCommandName } from './parse-slash-command.js';
import { PermissionDialog } from './permission-dialog.js';
import { PromptInput } from './prompt-input.js';
import { SessionPicker } from './session-picker.js';
import { StatusLine } from './status-line.js';
import { TodoPanel } from './todo-panel.js';
import { EMPTY_TRANSCRIPT, reduceTranscript, type TranscriptAction } from './transcript-state.js';
import { replayHistory } from './replay-history.js';
import { EMPTY_HISTORY, newerPrompt, olderPrompt, rememberPrompt, type PromptHistory } from './prompt-history.js';
import { TranscriptView } from './transcript-view.js';
import { InteractionDialog } from './interaction-dialog.js';
import { openInteraction, stepInteraction, type InteractionState } from './interaction-state.js';
import type { Interaction, InteractionAnswer } from './terminal-interaction.js';
import { useLatest } from './use-latest.js';
import type { Waiting, WaitingQueue } from './waiting-queue.js';

/** A second Ctrl+C within this long exits (ms). */
const EXIT_CONFIRM_MS = 2_000;
/** How long exiting waits for an interrupted turn to hand back its results (ms). */
const SETTLE_WAIT_MS = 3_000;
const CLEAR_SCREEN = '\x1b[2J\x1b[3J\x1b[H';

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

type Picker = { readonly sessions: readonly SessionSummary[]; readonly selected: number };

/** The interactive terminal UI over an {@link InteractiveHost}. One input handler routes every key: dialog first, then picker, then prompt. */
export function App(props: AppProps) {
  const { host, approvals, interactions } = props;
  const { exit } = useApp();
  const { write } = useStdout();
  const [transcript, dispatch] = useReducer(reduceTranscript, EMPTY_TRANSCRIPT);
  const [line, setLine] = useLatest<LineState>(EMPTY_LINE);
  const promptHistory = useRef<PromptHistory>(EMPTY_HISTORY);
  const [pending, setPending] = useLatest<PendingApproval | undefined>(approvals.current());
  const [dialog, setDialog] = useLatest<DialogState | undefined>(undefined);
  const [picker, setPicker] = useLatest<Picker | undefined>(undefined);
  const [asked, setAsked] = useLatest<Waiting<Interaction> | undefined>(undefined);
  const [askState, setAskState] = useLatest<InteractionState | undefined>(undefined);
  const [todos, setTodos] = useState(() => host.todos());
  const [now, setNow] = useState(() => Date.now());
  const [hint, setHint] = useState<string | undefined>(undefined);
  const [epoch, setEpoch] = useState(0);
  const [working, setWorking] = useLatest<string | undefined>(undefined);
  const turn = useRef<{ controller: AbortController; done: Promise<void> } | undefined>(undefined);
  const exitArmedAt = useRef<number | undefined>(undefined);
  const closing = useRef(false);
  const diffed = useRef(new Set<string>());

  const notice = useCallback(
    (text: string, tone: 'info' | 'warning' | 'error' = 'info') => dispatch({ type: 'notice', text, tone }),
    [],
  );

  useEffect(() => {
    const show = () => {
      const current = approvals.current();
      setPending(current);
      setDialog(current ? openDialog({ id: current.id, request: current.request, now: Date.now() }) : undefined);
    };
    show();
    return approvals.subscribe(show);
  }, [approvals, setPending, setDialog]);

  useEffect(() => {
    const show = () => {
      const current = interactions.current();
      setAsked(current);
      setAskState(current ? openInteraction(current.id, Date.now()) : undefined);
    };
    show();
    return interactions.subscribe(show);
  }, [interactions, setAsked, setAskState]);

  useEffect(() => host.onTodosChange((next) => setTodos(next)), [host]);

  useEffect(() => {
    if (!transcript.running) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [transcript.running]);

  const cwd = host.status().cwd;
  const shown = pending.current;
  const dialogDiff = useMemo(
    () =>
      shown
        ? fileChangeDiff({
            toolName: shown.request.tool.name,
            input: shown.request.input,
            readCurrent: (path) => readCurrentText(path, cwd),
          })
        : undefined,
    [shown, cwd],
  );

  const onLoopEvent = useCallback(
    (event: LoopEvent) => {
      dispatch({ type: 'loop-event', event, now: Date.now() });
      // Capture Edit/Write changes when the proposal is complete, before a Write replaces the file.
      const uses =
        event.type === 'assistant-message'
          ? event.message.content.flatMap((block) =>
              block.type === 'tool_use' ? [{ id: block.id, name: block.name, input: block.input }] : [],
            )
          : event.type === 'tool-call-end' && event.record.toolName === 'Edit'
            ? [{ id: event.record.toolUseId, name: event.record.toolName, input: event.record.input }]
            : [];
      for (const use of uses) {
        if (diffed.current.has(use.id)) continue;
        const diff = fileChangeDiff({
          toolName: use.name,
          input: use.input,
          readCurrent: (path) => readCurrentText(path, cwd),
        });
        if (diff === undefined) continue;
        diffed.current.add(use.id);
        dispatch({ type: 'call-diff', toolUseId: use.id, diff });
      }
    },
    [cwd],
  );

  const runTurn = useCallback(
    (prompt: string) => {
      const controller = new AbortController();
      dispatch({ type: 'prompt-submit', text: prompt });
      const done = (async () => {
        let end: TranscriptAction;
        try {
          const events = host.submit(prompt, controller.signal);
          let next = await events.next();
          while (!next.done) {
            onLoopEvent(next.value);
            next = await events.next();
          }
          end = turnEnd(next.value);
        } catch (error) {
          end = controller.signal.aborted
            ? { type: 'turn-end', outcome: 'interrupted' }
            : {
                type: 'turn-end',
                outcome: 'error',
                message: `The turn failed: ${error instanceof Error ? error.message : String(error)}`,
              };
        }
        dispatch(end);
        setHint(undefined);
        turn.current = undefined;
      })();
      turn.current = { controller, done };
    },
    [host, onLoopEvent],
  );

  const shutdown = useCallback(
    async (code: number) => {
      if (closing.current) return;
      closing.current = true;
      setHint('closing…');
      const running = turn.current;
      running?.controller.abort();
      if (running) await Promise.race([running.done, new Promise((resolve) => setTimeout(resolve, SETTLE_WAIT_MS))]);
      let exitCode = code;
      try {
        await host.close();
      } catch (error) {
        notice(`Closing failed: ${error instanceof Error ? error.message : String(error)}`, 'error');
        exitCode = 1;
      }
      props.onExit(exitCode);
      exit();
    },
    [host, exit, notice, props],
  );
  useEffect(() => {
    props.controls.requestExit = (code) => void shutdown(code);
  }, [props.controls, shutdown]);

  const background = useCallback(
    (label: string, task: (signal: AbortSignal) => Promise<void>) => {
      const controller = new AbortController();
      setWorking(label);
      const done = task(controller.signal)
        .catch((error: unknown) =>
          notice(`${label} failed: ${error instanceof Error ? error.message : String(error)}`, 'error'),
        )
        .finally(() => {
          setWorking(undefined);
          turn.current = undefined;
        });
      turn.current = { controller, done };
    },
    [notice, setWorking],
  );

  const startOver = useCallback(
    (message: string) => {
      dispatch({ type: 'clear' });
      diffed.current.clear();
      setEpoch((value) => value + 1);
      write(CLEAR_SCREEN);
      notice(message);
    },
    [notice, write],
  );

  const runCommand = useCallback(
    (name: SlashCommandName) => {
      const needsIdle: ReadonlySet<SlashCommandName> = new Set(['compact', 'resume', 'clear']);
      if (needsIdle.has(name) && turn.current) {
        notice(`/${name} waits for the running turn: press Esc to interrupt it first.`, 'warning');
        return;
      }
      switch (name) {
        case 'help':
          return notice(slashHelp());
        case 'permissions':
          return notice(host.describePermissions());
        case 'mcp':
          return notice(host.describeMcp());
        case 'exit':
          return void shutdown(0);
        case 'compact':
          return background('Compacting', async (signal) => notice(await host.compact(signal)));
        case 'clear':
          return background('Clearing', async () => {
            await host.clear();
            startOver(`New session ${host.status().sessionId}.`);
          });
        case 'resume':
          return background('Listing sessions', async () => {
            const sessions = await host.listSessions();
            if (sessions.length === 0) notice('No earlier sessions in this project.');
            else setPicker({ sessions, selected: 0 });
          });
      }
    },
    [host, notice, shutdown, background, startOver, setPicker],
  );

  const submitLine = useCallback(
    (text: string) => {
      const parsed = parseSlashCommand(text);
      switch (parsed.kind) {
        case 'empty':
          return;
        case 'unknown-command':
          setLine(EMPTY_LINE);
          return notice(`Unknown command /${parsed.name}. /help lists the commands.`, 'warning');
        case 'command':
          setLine(EMPTY_LINE);
          return runCommand(parsed.name);
        case 'prompt':
          if (turn.current) {
            setHint('a turn is running: Esc interrupts it');
            return;
          }
          setLine(EMPTY_LINE);
          return runTurn(parsed.text);
      }
    },
    [notice, runCommand, runTurn, setLine],
  );

  useEffect(() => {
    if (props.initialPrompt !== undefined && props.initialPrompt.trim() !== '') runTurn(props.initialPrompt);
    // The initial prompt runs once, when the app mounts.
  }, []);

  useInput((input, key: KeyPress) => {
    if (closing.current) return;
    if (key.ctrl && input === 'c') {
      const armed = exitArmedAt.current;
      if (armed !== undefined && Date.now() - armed < EXIT_CONFIRM_MS) return void shutdown(0);
      exitArmedAt.current = Date.now();
      setHint('press Ctrl+C again to exit');
      setTimeout(
        () => setHint((current) => (current === 'press Ctrl+C again to exit' ? undefined : current)),
        EXIT_CONFIRM_MS,
      );
      return;
    }
    const open = pending.current;
    const state = dialog.current;
    if (open && state && state.id === open.id) {
      // A chunk of several characters is a paste or keys typed ahead: it never picks an option
      // (the edit and message lines take pastes).
      if (state.mode === 'choose' && [...input].length > 1) return;
      const step = stepDialog(state, { input, key, now: Date.now(), callInput: open.request.input });
      setDialog(step.state);
      if (step.response) {
        dispatch({
          type: 'approval-answer',
          toolUseId: open.request.toolUseId,
          behavior: step.response.behavior,
          now: Date.now(),
        });
        approvals.answer(open.id, step.response);
      }
      return;
    }
    const question = asked.current;
    const questionState = askState.current;
    if (question && questionState && questionState.id === question.id) {
      if (questionState.mode === 'choose' && [...input].length > 1) return;
      const step = stepInteraction(questionState, { input, key, now: Date.now(), interaction: question.item });
      setAskState(step.state);
      if (step.answer) interactions.answer(question.id, step.answer);
      return;
    }
    const list = picker.current;
    if (list) return void onPickerKey(list, key);
    if (key.escape) {
      if (turn.current) {
        turn.current.controller.abort();
        setHint(working.current ? `stopping: ${working.current}` : 'interrupting…');
      }
      return;
    }
    if (key.upArrow || key.downArrow) {
      const recalled = key.upArrow
        ? olderPrompt(promptHistory.current, line.current.value)
        : newerPrompt(promptHistory.current);
      if (recalled) {
        promptHistory.current = recalled.history;
        setLine(lineOf(recalled.text));
      }
      return;
    }
    const edit = editLine(line.current, input, key);
    setLine(edit.state);
    if (edit.action === 'submit') {
      promptHistory.current = rememberPrompt(promptHistory.current, edit.state.value);
      submitLine(edit.state.value);
    }
  });

  function onPickerKey(list: Picker, key: KeyPress): void {
    const count = list.sessions.length;
    if (key.escape) return setPicker(undefined);
    if (key.upArrow) return setPicker({ ...list, selected: (list.selected - 1 + count) % count });
    if (key.downArrow) return setPicker({ ...list, selected: (list.selected + 1) % count });
    if (!key.return) return;
    const chosen = list.sessions[list.selected];
    setPicker(undefined);
    if (!chosen) return;
    background('Resuming', async () => {
      await host.resume(chosen.id);
      startOver(`Resumed session ${chosen.id}.`);
      for (const action of replayHistory(host.history?.() ?? [], Date.now())) dispatch(action);
    });
  }

  const overlay = dialog.current !== undefined || picker.current !== undefined || asked.current !== undefined;
  const showAsked = asked.current && askState.current && !(pending.current && dialog.current);
  return (
    <Box flexDirection="column">
      <TranscriptView state={transcript} now={now} epoch={epoch} />
      {picker.current ? <SessionPicker sessions={picker.current.sessions} selected={picker.current.selected} /> : null}
      {pending.current && dialog.current ? (
        <PermissionDialog request={pending.current.request} state={dialog.current} diff={dialogDiff} />
      ) : null}
      {showAsked && asked.current && askState.current ? (
        <InteractionDialog interaction={asked.current.item} state={askState.current} />
      ) : null}
      <TodoPanel todos={todos} />
      <PromptInput
        line={line.current}
        active={!overlay}
        running={transcript.running || working.current !== undefined}
      />
      <StatusLine
        status={host.status()}
        {...(hint !== undefined ? { hint } : working.current ? { hint: `${working.current}…` } : {})}
      />
    </Box>
  );
}

function turnEnd(result: QueryResult): TranscriptAction {
  switch (result.status) {
    case 'success':
      return { type: 'turn-end', outcome: 'success' };
    case 'aborted':
      return {
        type: 'turn-end',
        outcome: 'interrupted',
        message: 'Interrupted: every pending call was answered as interrupted.',
      };
    case 'error_max_turns':
      return {
        type: 'turn-end',
        outcome: 'error',
        message: `Stopped after ${result.turns} model requests (the turn limit).`,
      };
    case 'error_during_execution':
    case 'error_max_structured_output_retries':
      return {
        type: 'turn-end',
        outcome: 'error',
        message: result.error ? `The turn failed: ${result.error.message}` : 'The turn failed.',
      };
  }
}
