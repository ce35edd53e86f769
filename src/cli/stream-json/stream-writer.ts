import { randomUUID } from 'node:crypto';
import type { LoopEvent, QueryResult } from '../../session/index.js';
import { apiRetryEvent, toResultObject } from '../output-format.js';
import type { Runtime } from '../runtime/create-runtime.js';

/** Writes a run's events as stream-json lines, in the shapes the Agent SDK reads. */
export type StreamWriter = {
  init(runtime: Runtime, cwd: string): void;
  event(event: LoopEvent): void;
  result(result: QueryResult, options: { readonly durationMs: number; readonly interrupted: boolean }): void;
};

/** A stream writer over `line` for the session whose id `sessionId` gives. */
export function createStreamWriter(line: (value: unknown) => void, sessionId: () => string): StreamWriter {
  return {
    init(runtime, cwd) {
      line({
        type: 'system',
        subtype: 'init',
        cwd,
        session_id: sessionId(),
        tools: runtime.session.pool().tools.map((tool) => tool.name),
        mcp_servers: (runtime.mcp?.servers() ?? []).map((server) => ({
          name: server.name,
          status: server.state.status,
        })),
        model: runtime.session.model(),
        permissionMode: runtime.permissions.mode,
        slash_commands: [],
        output_style: 'default',
        apiKeySource: 'none',
        uuid: randomUUID(),
      });
    },
    event(event) {
      if (event.type === 'retry') line(apiRetryEvent(event, sessionId()));
      else if (event.type === 'assistant-message') {
        // One event per content block, as the reference streams them, all of the same message.
        for (const block of event.message.content)
          line({
            type: 'assistant',
            message: { ...event.message, content: [block] },
            parent_tool_use_id: null,
            uuid: randomUUID(),
            session_id: sessionId(),
          });
      } else if (event.type === 'tool-results')
        line({
          type: 'user',
          message: event.message,
          parent_tool_use_id: null,
          uuid: randomUUID(),
          session_id: sessionId(),
        });
    },
    result(result, options) {
      line({ ...toResultObject(result, { sessionId: sessionId(), ...options }), uuid: randomUUID() });
    },
  };
}
