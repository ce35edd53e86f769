import { z } from 'zod';
import { HOOK_EVENT_NAMES, type HookEventName } from '../../contract/hook-config.js';
import { hookOutputSchema, type FunctionHook, type HookOutput } from '../../session/index.js';
import type { ControlChannel } from './control-channel.js';

/** One matcher of the `hooks` an `initialize` request registers: the SDK's `SDKHookCallbackMatcher`. */
export const sdkHookMatcherSchema = z.looseObject({
  matcher: z.string().optional(),
  hookCallbackIds: z.array(z.string().min(1)),
  /** Seconds. */
  timeout: z.number().positive().optional(),
  onFailure: z.enum(['continue', 'block']).optional(),
});

/** The `hooks` of an `initialize` request, by event name. */
export type SdkHookRegistrations = Readonly<Record<string, readonly z.infer<typeof sdkHookMatcherSchema>[]>>;

const KNOWN_EVENTS: ReadonlySet<string> = new Set(HOOK_EVENT_NAMES);

/** The SDK host's hooks as function hooks, and the events toolplane does not run. */
export type SdkHooks = { readonly hooks: readonly FunctionHook[]; readonly unsupportedEvents: readonly string[] };

/**
 * Turns the hooks an Agent SDK host registered into function hooks that send `hook_callback`
 * requests. They run in toolplane's hook plane like any other hook: same matchers, same
 * aggregation (a deny wins), same place in the gate chain. An answer that is not a hook output,
 * an error answer or a timeout counts as the hook failing: the call goes on with a warning, or is
 * blocked when the matcher says `onFailure: 'block'`.
 */
export function createSdkHooks(registrations: SdkHookRegistrations, channel: ControlChannel): SdkHooks {
  const hooks: FunctionHook[] = [];
  const unsupportedEvents: string[] = [];
  for (const [event, matchers] of Object.entries(registrations)) {
    if (!KNOWN_EVENTS.has(event)) {
      unsupportedEvents.push(event);
      continue;
    }
    for (const matcher of matchers) {
      for (const callbackId of matcher.hookCallbackIds) {
        hooks.push({
          event: event as HookEventName,
          ...(matcher.matcher !== undefined ? { matcher: matcher.matcher } : {}),
          name: `SDK hook callback ${callbackId}`,
          ...(matcher.timeout !== undefined ? { timeoutMs: matcher.timeout * 1000 } : {}),
          failClosed: matcher.onFailure === 'block',
          callback: (input, signal) => askHost(channel, callbackId, input, signal),
        });
      }
    }
  }
  return { hooks, unsupportedEvents };
}

async function askHost(
  channel: ControlChannel,
  callbackId: string,
  input: Readonly<Record<string, unknown>>,
  signal: AbortSignal,
): Promise<HookOutput> {
  const toolUseId = typeof input.tool_use_id === 'string' ? input.tool_use_id : undefined;
  const answer = await channel.request(
    { subtype: 'hook_callback', callback_id: callbackId, input, ...(toolUseId ? { tool_use_id: toolUseId } : {}) },
    signal,
  );
  const parsed = hookOutputSchema.safeParse(answer);
  if (!parsed.success) throw new Error(`the host's answer is not a hook output: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}
