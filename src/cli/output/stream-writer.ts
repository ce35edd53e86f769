import type { ToolCallRecord } from '../../execution/types.js';
import type { HookRunEvent, LoopEvent, QueryResult } from '../../session/index.js';
import { packageVersion } from '../package-root.js';
import type { RunArguments } from '../args.js';
import type { Runtime } from '../runtime/create-runtime.js';
import { createPartialEvents } from './partial-events.js';
import { resultContextOf, toResultObject, type RunEnd } from './result-object.js';
import {
  apiRetryMessage,
  assistantMessages,
  hookMessage,
  initMessage,
  newMessageId,
  toolResultMessages,
  type InitFacts,
} from './sdk-messages.js';

/** Writes a run's events as stream-json lines, in the shapes the Agent SDK reads. */
export type StreamWriter = {
  /** `slashCommands`: the custom commands' names, which a prompt `/name …` runs. */
  init(cwd: string, env: Readonly<Record<string, string | undefined>>, slashCommands?: readonly string[]): void;
  event(event: LoopEvent): void;
  /** A hook's start or end, written only with `includeHookEvents`. */
  hook(event: HookRunEvent): void;
  result(result: QueryResult, run: RunEnd): void;
};

/**
 * A stream writer over `line`, for `-p --output-format stream-json` and the Agent SDK's protocol
 * alike: `init`, then per response one `assistant` event per block (with `stream_event` partials
 * before them under `--include-partial-messages`), one `user` event per tool result, `api_retry`
 * events, and the result.
 */
export function createStreamWriter(options: {
  readonly line: (value: unknown) => void;
  readonly runtime: Runtime;
  /** `--include-partial-messages` and `--include-hook-events`. */
  readonly flags: Pick<RunArguments, 'includePartialMessages' | 'includeHookEvents'>;
}): StreamWriter {
  const { line, runtime, flags } = options;
  const sessionId = () => runtime.session.id();
  const model = () => runtime.session.model();
  let messageId = newMessageId();
  // Each call's record, kept from its end to the `user` event of its result.
  const records = new Map<string, ToolCallRecord>();
  const partials = flags.includePartialMessages
    ? createPartialEvents({ messageId: () => messageId, model, sessionId })
    : undefined;
  return {
    init: (cwd, env, slashCommands = []) => line(initMessage({ ...initFactsOf(runtime, cwd, env), slashCommands })),
    event(event) {
      switch (event.type) {
        case 'request-start':
          messageId = newMessageId();
          break;
        case 'retry':
          partials?.of(event).forEach(line);
          messageId = newMessageId();
          line(apiRetryMessage(event, sessionId()));
          break;
        case 'text-delta':
        case 'tool-use-start':
        case 'tool-input-delta':
          partials?.of(event).forEach(line);
          break;
        case 'assistant-message':
          partials?.of(event).forEach(line);
          assistantMessages(event, { id: messageId, model: model(), sessionId: sessionId() }).forEach(line);
          break;
        case 'tool-call-end':
          records.set(event.record.toolUseId, event.record);
          break;
        case 'tool-results':
          toolResultMessages(event, records, sessionId()).forEach(line);
          records.clear();
          break;
        default:
          break;
      }
    },
    hook: (event) => {
      if (flags.includeHookEvents) line(hookMessage(event, sessionId()));
    },
    result: (result, run) => line(toResultObject(result, resultContextOf(runtime, run))),
  };
}

/** What the `init` event tells of `runtime`'s session. */
function initFactsOf(
  runtime: Runtime,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Omit<InitFacts, 'slashCommands'> {
  return {
    sessionId: runtime.session.id(),
    cwd,
    model: runtime.session.model(),
    tools: runtime.session.pool().tools.map((tool) => tool.name),
    mcpServers: (runtime.mcp?.servers() ?? []).map((server) => ({ name: server.name, status: server.state.status })),
    permissionMode: runtime.permissions.mode,
    agents: runtime.agentTypes.map((agent) => agent.name),
    version: packageVersion(),
    keyFromEnv: runtime.provider.name === 'anthropic' && Boolean(env.ANTHROPIC_API_KEY),
  };
}

/**
 * Hook events for a writer that does not exist yet: hooks run while the session starts
 * (SessionStart), before `init` is written; those wait and follow it.
 */
export function createHookEventRelay() {
  const waiting: HookRunEvent[] = [];
  let writer: StreamWriter | undefined;
  return {
    onHookRun(event: HookRunEvent): void {
      if (writer) writer.hook(event);
      else waiting.push(event);
    },
    /** From now on events go to `to`, the waiting ones first. */
    attach(to: StreamWriter): void {
      writer = to;
      for (const event of waiting.splice(0)) to.hook(event);
    },
  };
}
