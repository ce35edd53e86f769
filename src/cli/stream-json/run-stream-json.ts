import type { QueryResult } from '../../session/index.js';
import type { RunArguments } from '../args.js';
import {
  createRuntimeOrReport,
  customCommandsFor,
  EXIT,
  turnFor,
  unsentOnInterrupt,
  type CommandIo,
} from '../headless.js';
import type { Runtime } from '../runtime/create-runtime.js';
import { ControlChannel, type ControlResponseMessage } from './control-channel.js';
import { answerHostRequest } from './host-requests.js';
import { setUpHost, type HostSetup } from './host-setup.js';
import { initializeRequestSchema } from './initialize-request.js';
import { PromptQueue } from './prompt-queue.js';
import { readJsonLines } from './read-json-lines.js';
import { createSdkApprover } from './sdk-approver.js';
import { createHookEventRelay, createStreamWriter, type StreamWriter } from '../output/stream-writer.js';
import { promptOf, sdkUserMessageSchema, type SdkUserMessage } from './user-message.js';

type ControlRequestMessage = { readonly request_id: string; readonly request: Readonly<Record<string, unknown>> };

/**
 * `toolplane -p --input-format stream-json`: the Agent SDK's protocol. Prompts arrive as `user`
 * messages and run one after another; control requests set the run up (`initialize`: hooks, SDK
 * MCP servers, agents, options) and steer it. With `--permission-prompt-tool stdio` an `ask` goes
 * to the host's `canUseTool`, after every rule, safety check and hook has had its say. The run
 * ends when the host closes its input and the last prompt is answered.
 */
export async function runStreamJson(args: RunArguments, io: CommandIo): Promise<number> {
  const line = (value: unknown) => io.stdout.write(`${JSON.stringify(value)}\n`);
  const warn = (text: string) => io.stderr.write(`${text}\n`);
  const channel = new ControlChannel(line);
  const prompts = new PromptQueue<SdkUserMessage>();
  const cwd = args.cwd ?? io.cwd;
  const shutdown = new AbortController();
  let signalled: 'SIGINT' | 'SIGTERM' | undefined;
  let turn: AbortController | undefined;
  const onSignal = (name: 'SIGINT' | 'SIGTERM') => () => {
    signalled ??= name;
    turn?.abort(new Error(`interrupted by ${name}`));
    shutdown.abort(new Error(`interrupted by ${name}`));
    prompts.end();
  };
  const onInt = onSignal('SIGINT');
  const onTerm = onSignal('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);

  const hookEvents = args.includeHookEvents ? createHookEventRelay() : undefined;
  let started: Promise<{ runtime: Runtime; setup: HostSetup | undefined } | undefined> | undefined;
  const start = (setup: HostSetup | undefined) =>
    (started ??= createRuntimeOrReport({
      args: setup?.args ?? args,
      cwd,
      env: io.env,
      homeDir: io.homeDir,
      interactive: false,
      warn,
      signal: shutdown.signal,
      ...(setup ? { host: setup.host } : {}),
      ...(hookEvents ? { onHookRun: hookEvents.onHookRun } : {}),
    }).then((runtime) => {
      if (runtime && args.permissionPromptTool === 'stdio')
        runtime.session.setApprover(createSdkApprover({ channel, warn }));
      return runtime ? { runtime, setup } : undefined;
    }));
  const answer = (requestId: string, result: ControlAnswer) => line(controlResponse(requestId, result));
  const commandsOf = customCommandsOnce({ cwd, homeDir: io.homeDir });

  const onControlRequest = async (message: ControlRequestMessage) => {
    const { request } = message;
    if (request.subtype === 'initialize') {
      if (started) return answer(message.request_id, { ok: false, error: 'the session is already initialized' });
      const parsed = initializeRequestSchema.safeParse(request);
      if (!parsed.success)
        return answer(message.request_id, { ok: false, error: `initialize: ${parsed.error.issues[0]?.message}` });
      const setup = setUpHost(parsed.data, args, channel);
      for (const notice of setup.notices) warn(`toolplane: ${notice}`);
      const ready = await start(setup);
      if (!ready) return answer(message.request_id, { ok: false, error: 'the session could not start' });
      const { rows } = await commandsOf(ready.runtime);
      return answer(message.request_id, { ok: true, response: initializeAnswer(ready.runtime, setup, rows) });
    }
    const ready = await (started ?? start(undefined));
    if (!ready) return answer(message.request_id, { ok: false, error: 'the session could not start' });
    answer(
      message.request_id,
      answerHostRequest(request, {
        runtime: ready.runtime,
        transports: ready.setup?.transports ?? new Map(),
        interrupt: () => turn?.abort(new Error('interrupted by the host')),
        bypassAllowed: args.allowDangerouslySkipPermissions || args.permissionMode === 'bypassPermissions',
      }),
    );
  };

  const reading = pumpInput(io.stdin, {
    onUser: (message) => prompts.push(message),
    onControlRequest: (message) => {
      onControlRequest(message).catch((error: unknown) =>
        answer(message.request_id, { ok: false, error: error instanceof Error ? error.message : String(error) }),
      );
    },
    onControlResponse: (message) => channel.deliver(message),
    warn,
  }).finally(() => {
    // No answer can come any more: requests still waiting are refused (a permission ask is denied).
    channel.close('the host closed its input');
    prompts.end();
  });

  let exitCode: number = EXIT.success;
  try {
    let writer: StreamWriter | undefined;
    for await (const message of prompts) {
      const ready = await (started ?? start(undefined));
      if (!ready) return EXIT.error;
      const { runtime } = ready;
      if (!writer) {
        writer = createStreamWriter({ line, runtime, flags: args });
        writer.init(cwd, io.env, (await commandsOf(runtime)).names);
        hookEvents?.attach(writer);
      }
      const { text, dropped } = promptOf(message);
      if (dropped.length > 0)
        warn(`toolplane: parts of the prompt are not supported and were left out: ${dropped.join(', ')}`);
      turn = new AbortController();
      const result = await runOneTurn(runtime, text, { cwd, homeDir: io.homeDir }, turn.signal, { writer, warn });
      const interrupted = turn.signal.aborted;
      turn = undefined;
      writer.result(result.value, { durationMs: result.durationMs, interrupted });
      exitCode = result.value.status === 'success' && !interrupted ? EXIT.success : EXIT.error;
      if (signalled) break;
    }
    if (!started) warn('toolplane: no prompt: the host sent no user message on standard input');
    if (signalled) return signalled === 'SIGINT' ? EXIT.sigint : EXIT.sigterm;
    return started ? exitCode : EXIT.usage;
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
    const last = await started;
    await last?.runtime.session.close().catch((error: unknown) => warn(`toolplane: closing failed: ${String(error)}`));
    channel.close('the session ended');
    if (signalled) io.stdin.pause?.();
    else await reading;
  }
}

/**
 * The custom commands, read once for the `initialize` answer and the `init` event alike (a prompt
 * `/name` reads them again, so a command added meanwhile runs).
 */
function customCommandsOnce(where: { readonly cwd: string; readonly homeDir: string }) {
  let commands: ReturnType<typeof customCommandsFor> | undefined;
  return (runtime: Runtime) => (commands ??= customCommandsFor(runtime, where));
}

async function runOneTurn(
  runtime: Runtime,
  prompt: string,
  where: { readonly cwd: string; readonly homeDir: string },
  signal: AbortSignal,
  out: { readonly writer: StreamWriter; readonly warn: (line: string) => void },
): Promise<{ readonly value: QueryResult; readonly durationMs: number }> {
  const began = performance.now();
  const generator = await turnFor(runtime, prompt, where, signal);
  for (;;) {
    // A custom command interrupted before its prompt was sent throws: its turn ends aborted.
    const step = await generator.next().catch(unsentOnInterrupt(() => signal.aborted));
    if (step.done) {
      await runtime.session
        .transcript()
        .flush()
        .catch(() => undefined);
      return { value: step.value, durationMs: performance.now() - began };
    }
    out.writer.event(step.value);
    // The protocol has no message for them: notices for people go to stderr, as in -p.
    if (step.value.type === 'notice') out.warn(`toolplane: ${step.value.message}`);
  }
}

type ControlAnswer = { ok: true; response?: object } | { ok: false; error: string };

/** The `control_response` line answering request `requestId`. */
function controlResponse(requestId: string, result: ControlAnswer) {
  return {
    type: 'control_response',
    response: result.ok
      ? { subtype: 'success', request_id: requestId, response: result.response ?? {} }
      : { subtype: 'error', request_id: requestId, error: result.error },
  };
}

/** The `initialize` answer: what the session offers, and which of the request's options were applied. */
function initializeAnswer(runtime: Runtime, setup: HostSetup, commands: readonly object[]): Record<string, unknown> {
  return {
    commands,
    agents: runtime.agentTypes.map((agent) => ({ name: agent.name, description: agent.description })),
    output_style: 'default',
    available_output_styles: ['default'],
    models: [{ value: runtime.model, displayName: runtime.model, description: `${runtime.provider.name} model` }],
    account: {},
    hook_on_failure_supported: true,
    ...setup.applied,
  };
}

/** Reads the host's lines and hands each message to its handler, until the input ends. */
async function pumpInput(
  stdin: NodeJS.ReadableStream,
  handlers: {
    readonly onUser: (message: SdkUserMessage) => void;
    readonly onControlRequest: (message: ControlRequestMessage) => void;
    readonly onControlResponse: (message: ControlResponseMessage) => void;
    readonly warn: (line: string) => void;
  },
): Promise<void> {
  for await (const input of readJsonLines(stdin)) {
    if (input.kind === 'invalid') {
      handlers.warn(`toolplane: an input line is not JSON and was ignored (${input.message}): ${input.text}`);
      continue;
    }
    const message = input.value as {
      readonly type?: unknown;
      readonly request_id?: unknown;
      readonly request?: unknown;
      readonly response?: unknown;
    };
    if (message.type === 'user') {
      const parsed = sdkUserMessageSchema.safeParse(message);
      if (parsed.success) handlers.onUser(parsed.data);
      else handlers.warn(`toolplane: a user message was ignored: ${parsed.error.issues[0]?.message}`);
    } else if (
      message.type === 'control_request' &&
      typeof message.request_id === 'string' &&
      isRecord(message.request)
    )
      handlers.onControlRequest({ request_id: message.request_id, request: message.request });
    else if (message.type === 'control_response' && isRecord(message.response))
      handlers.onControlResponse(message as ControlResponseMessage);
    else if (message.type !== 'control_cancel_request' && message.type !== 'keep_alive')
      handlers.warn(`toolplane: an input message of type ${JSON.stringify(message.type)} was ignored`);
  }
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
