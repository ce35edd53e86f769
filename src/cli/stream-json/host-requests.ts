import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { PERMISSION_MODES, type PermissionMode } from '../../contract/permission.js';
import type { Runtime } from '../runtime/create-runtime.js';
import type { SdkMcpTransport } from './sdk-mcp-transport.js';

/** The parts of a stream-json run that the host's control requests act on. */
export type HostRequestContext = {
  readonly runtime: Runtime;
  readonly transports: ReadonlyMap<string, SdkMcpTransport>;
  /** Aborts the turn that is running, if one is. */
  readonly interrupt: () => void;
  /** Bypass mode may be switched to only when the run started in it or allowed it at launch. */
  readonly bypassAllowed: boolean;
};

/** A control request's answer: the success payload, or an error. */
export type HostRequestAnswer =
  { readonly ok: true; readonly response?: Record<string, unknown> } | { readonly ok: false; readonly error: string };

/**
 * Answers a control request the host sent after `initialize`: `interrupt`, `set_permission_mode`,
 * `set_model` and `mcp_message` (a message of an SDK MCP server's own). Others get an error answer
 * that names them.
 */
export function answerHostRequest(
  request: Readonly<Record<string, unknown>>,
  context: HostRequestContext,
): HostRequestAnswer {
  switch (request.subtype) {
    case 'interrupt':
      context.interrupt();
      return { ok: true, response: { still_queued: [] } };
    case 'set_permission_mode': {
      const mode = request.mode;
      if (typeof mode !== 'string' || !(PERMISSION_MODES as readonly string[]).includes(mode))
        return {
          ok: false,
          error: `unknown permission mode ${JSON.stringify(mode)}; one of ${PERMISSION_MODES.join(', ')}`,
        };
      if (mode === 'bypassPermissions' && !context.bypassAllowed)
        return {
          ok: false,
          error:
            'bypassPermissions needs --dangerously-skip-permissions or --allow-dangerously-skip-permissions at launch',
        };
      context.runtime.session.modes.set(mode as PermissionMode);
      return { ok: true, response: { mode: context.runtime.session.modes.get() } };
    }
    case 'set_model': {
      const model = request.model;
      if (model !== undefined && model !== null && typeof model !== 'string')
        return { ok: false, error: 'set_model: model must be a string' };
      context.runtime.session.setModel(model === null || model === 'default' ? undefined : model);
      return { ok: true, response: {} };
    }
    case 'mcp_message': {
      const transport =
        typeof request.server_name === 'string' ? context.transports.get(request.server_name) : undefined;
      if (!transport)
        return { ok: false, error: `mcp_message: no SDK MCP server named ${JSON.stringify(request.server_name)}` };
      transport.receive(request.message as JSONRPCMessage);
      return { ok: true, response: {} };
    }
    default:
      return { ok: false, error: `toolplane does not support the control request ${JSON.stringify(request.subtype)}` };
  }
}
