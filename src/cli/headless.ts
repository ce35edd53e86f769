import { ToolplaneError } from '../errors/toolplane-error.js';
import type { LoopEvent, QueryResult } from '../session/index.js';
import { UsageError, type RunArguments } from './args.js';
import { resultContextOf, toResultObject } from './output/result-object.js';
import { createHookEventRelay, createStreamWriter } from './output/stream-writer.js';
import { describeModelError, modelErrorContextOf } from './describe-model-error.js';
import { describeRetry } from './describe-retry.js';
import { ProviderSetupError } from './runtime/choose-provider.js';
import { createRuntime, type Runtime, type RuntimeOptions } from './runtime/create-runtime.js';

/** Streams and environment of a run: the real process's, or a test's. */
export type CommandIo = {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly homeDir: string;
  /** Where the managed policy is read; default `/etc/toolplane/managed-settings.json` (tests point it elsewhere). */
  readonly managedSettingsFile?: string;
};

/** Exit codes. */
export const EXIT = { success: 0, error: 1, usage: 2, sigint: 130, sigterm: 143 } as const;

/**
 * The turn a prompt starts: a custom command's for `/name …` when the project or the person defines
 * one (its code is loaded only then), else the prompt's own.
 */
export async function turnFor(
  runtime: Runtime,
  prompt: string,
  where: { readonly cwd: string; readonly homeDir: string },
  signal: AbortSignal,
): Promise<AsyncGenerator<LoopEvent, QueryResult>> {
  if (!prompt.trimStart().startsWith('/')) return runtime.session.submit(prompt, signal);
  const { promptTurn } = await import('./slash-commands/prompt-turn.js');
  return promptTurn(runtime, prompt, where, signal);
}

/**
 * What a turn that threw comes to: a custom command interrupted before its prompt was sent throws,
 * and ends as an aborted turn with nothing spent (its result is written like any other); anything
 * else, or a throw with no interrupt, is thrown on.
 */
export function unsentOnInterrupt(
  interrupted: () => boolean,
): (error: unknown) => Promise<{ readonly done: true; readonly value: QueryResult }> {
  return async (error) => {
    if (!interrupted()) throw error;
    const { unsentTurn } = await import('./slash-commands/prompt-turn.js');
    return { done: true, value: unsentTurn(error instanceof Error ? error : new Error(String(error))) };
  };
}

/** The custom slash commands, for stream-json's `init` and `initialize` (their code loaded only then). */
export async function customCommandsFor(
  runtime: Runtime,
  where: { readonly cwd: string; readonly homeDir: string },
): Promise<{ readonly names: readonly string[]; readonly rows: readonly object[] }> {
  const { customCommandsOf, customCommandRows } = await import('./slash-commands/prompt-turn.js');
  const list = customCommandsOf(runtime, where);
  return { names: [...list.commands.keys()], rows: customCommandRows(list) };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += String(chunk);
  return text;
}

/**
 * `toolplane -p`: runs one task and exits. No approver: an `ask` is denied unless a
 * PermissionRequest hook decides. SIGINT and SIGTERM abort the run cleanly: running calls are
 * aborted, every tool_use gets its result, the transcript is flushed, and the exit code says so.
 */
export async function runHeadless(args: RunArguments, io: CommandIo): Promise<number> {
  const started = performance.now();
  const write = (stream: NodeJS.WritableStream, text: string) => stream.write(text);
  const warn = (line: string) => write(io.stderr, `${line}\n`);
  for (const notice of args.notices) warn(`toolplane: ${notice}`);
  if (args.inputFormat === 'stream-json') {
    if (args.outputFormat !== 'stream-json')
      throw new UsageError('--input-format stream-json needs --output-format stream-json.');
    // Loaded only here: the protocol code costs nothing at the start of other runs.
    const { runStreamJson } = await import('./stream-json/run-stream-json.js');
    return runStreamJson(args, io);
  }
  let prompt = args.prompt;
  if (prompt === undefined && io.stdin.isTTY !== true) prompt = (await readAll(io.stdin)).trim();
  if (!prompt) throw new UsageError('No prompt: give one after -p, or on standard input.');

  const controller = new AbortController();
  let interrupted: 'SIGINT' | 'SIGTERM' | undefined;
  const onSignal = (name: 'SIGINT' | 'SIGTERM') => () => {
    interrupted ??= name;
    controller.abort(new Error(`interrupted by ${name}`));
  };
  const onInt = onSignal('SIGINT');
  const onTerm = onSignal('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);

  const where = { cwd: args.cwd ?? io.cwd, homeDir: io.homeDir };
  let runtime: Runtime | undefined;
  let unwritten: Error | undefined;
  const hookEvents = args.includeHookEvents && args.outputFormat === 'stream-json' ? createHookEventRelay() : undefined;
  try {
    runtime = await createRuntimeOrReport({
      args,
      cwd: args.cwd ?? io.cwd,
      env: io.env,
      homeDir: io.homeDir,
      interactive: false,
      warn,
      signal: controller.signal,
      ...(hookEvents ? { onHookRun: hookEvents.onHookRun } : {}),
    });
    if (!runtime) return EXIT.error;
    const line = (value: unknown) => write(io.stdout, `${JSON.stringify(value)}\n`);
    const writer = args.outputFormat === 'stream-json' ? createStreamWriter({ line, runtime, flags: args }) : undefined;
    if (writer) writer.init(args.cwd ?? io.cwd, io.env, (await customCommandsFor(runtime, where)).names);
    if (writer) hookEvents?.attach(writer);
    const generator = await turnFor(runtime, prompt, where, controller.signal);
    const context = modelErrorContextOf({
      provider: runtime.provider.name,
      model: runtime.model,
      baseUrlFlag: args.baseUrl,
      env: io.env,
    });
    // Errors told on stderr as they happened, so the end of the run does not repeat them.
    const told = new Set<Error>();
    const tell = (error: Error) => {
      told.add(error);
      warn(`toolplane: ${describeModelError(error, context)}`);
    };
    let result: QueryResult;
    for (;;) {
      const step = await generator.next().catch(unsentOnInterrupt(() => interrupted !== undefined));
      if (step.done) {
        result = step.value;
        break;
      }
      writer?.event(step.value);
      report(step.value, { streamed: writer !== undefined, debug: args.debug, warn, tell });
    }
    // A transcript that could not be written ends the run with an error, told already by the turn.
    unwritten = await runtime.session
      .transcript()
      .flush()
      .then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      );
    if (unwritten && !result.error) {
      warn(`toolplane: ${unwritten.message}`);
      result = { ...result, status: 'error_during_execution', error: unwritten };
    }
    const end = { durationMs: performance.now() - started, interrupted: interrupted !== undefined };
    const object = toResultObject(result, resultContextOf(runtime, end));
    if (args.outputFormat === 'text') {
      if (result.requiredToolInput !== undefined)
        write(io.stdout, `${JSON.stringify(result.requiredToolInput, null, 2)}\n`);
      else if (result.text) write(io.stdout, `${result.text}\n`);
      if ('errors' in object && !(result.error !== undefined && told.has(result.error)))
        warn(`toolplane: ${object.errors.join('; ')}`);
    } else {
      line(object);
    }
    if (args.debug) warn(`transcript: ${runtime.session.transcript().path}`);
    if (interrupted) return interrupted === 'SIGINT' ? EXIT.sigint : EXIT.sigterm;
    return object.is_error ? EXIT.error : EXIT.success;
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
    await runtime?.session.close().catch((error: unknown) => {
      if (error !== unwritten) warn(`toolplane: closing failed: ${String(error)}`);
    });
  }
}

/** The runtime, or undefined after telling why it could not start (no provider, a settings file that cannot be read). */
export async function createRuntimeOrReport(options: RuntimeOptions): Promise<Runtime | undefined> {
  try {
    return await createRuntime(options);
  } catch (error) {
    if (error instanceof ProviderSetupError || error instanceof ToolplaneError) {
      options.warn(`toolplane: ${error.message}`);
      return undefined;
    }
    throw error;
  }
}

/** What a run shows on stderr: errors, notices, retries (stream-json shows those as `api_retry` events), and with --debug each call. */
function report(
  event: LoopEvent,
  options: {
    readonly streamed: boolean;
    readonly debug: boolean;
    readonly warn: (text: string) => void;
    /** Tells an error in words for people (a refused key names its variable). */
    readonly tell: (error: Error) => void;
  },
): void {
  if (event.type === 'retry') {
    if (!options.streamed) options.warn(`toolplane: ${describeRetry(event)}`);
    return;
  }
  if (!options.debug) {
    // Notices are for people: a hook that stopped the run, a compaction, a custom command's problems.
    if (event.type === 'error') options.tell(event.error);
    else if (event.type === 'notice') options.warn(`toolplane: ${event.message}`);
    return;
  }
  switch (event.type) {
    case 'tool-call-start':
      options.warn(`[tool] ${event.toolName} ${event.toolUseId} started (batch ${event.batch})`);
      break;
    case 'tool-call-end':
      options.warn(
        `[tool] ${event.record.toolName} ${event.record.toolUseId} ${event.record.outcome.status} in ${event.durationMs.toFixed(1)} ms`,
      );
      break;
    case 'permission-decision':
      options.warn(`[permission] ${event.toolUseId} ${event.behavior}`);
      break;
    case 'error':
      options.tell(event.error);
      break;
    case 'notice':
      options.warn(`toolplane: ${event.message}`);
      break;
    case 'compact':
      options.warn(`[compact] ${event.removedMessages} messages summarized`);
      break;
    default:
      break;
  }
}
