import { describe, expect, it } from 'vitest';
import type { HookEventName, HookMatcherConfig } from '../contract/hook-config.js';
import { ToolplaneError } from '../errors/toolplane-error.js';
import { unreachableHookMessages } from './event-values.js';
import { stopFailureOf } from './stop-failure-error.js';

function settings(event: HookEventName, matchers: (string | undefined)[]) {
  const groups: HookMatcherConfig[] = matchers.map((matcher, index) => ({
    ...(matcher === undefined ? {} : { matcher }),
    hooks: [{ type: 'command', command: `hook-${index}` }],
    source: 'projectSettings',
    file: '/p/.claude/settings.json',
  }));
  return new Map([[event, groups]]);
}

describe('unreachableHookMessages', () => {
  it('names each hook whose matcher can match nothing toolplane sends, and no other', () => {
    const messages = unreachableHookMessages({
      settings: settings('Notification', [
        'idle_prompt',
        'idle_prompt|elicitation_dialog',
        'permission_prompt',
        '.*_prompt',
        undefined,
      ]),
      functionHooks: [
        { event: 'StopFailure', matcher: 'oauth_org_not_allowed', name: 'pager', callback: () => undefined },
        { event: 'ConfigChange', matcher: 'skills', name: 'skills-audit', callback: () => undefined },
        { event: 'InstructionsLoaded', matcher: 'session_start', name: 'audit', callback: () => undefined },
        { event: 'PreToolUse', matcher: 'NoSuchTool', name: 'tools are judged elsewhere', callback: () => undefined },
      ],
    });
    expect(messages).toEqual([
      '/p/.claude/settings.json: Notification hook "hook-0" never runs: its matcher "idle_prompt" matches none of what toolplane sends (permission_prompt)',
      '/p/.claude/settings.json: Notification hook "hook-1" never runs: its matcher "idle_prompt|elicitation_dialog" matches none of what toolplane sends (permission_prompt)',
      'function hooks: StopFailure hook "pager" never runs: its matcher "oauth_org_not_allowed" matches none of what toolplane sends (rate_limit, authentication_failed, billing_error, invalid_request, server_error, unknown)',
      'function hooks: ConfigChange hook "skills-audit" never runs: its matcher "skills" matches none of what toolplane sends (user_settings, project_settings, local_settings)',
    ]);
  });
});

function providerError(fields: { status?: number; apiErrorType?: string; kind?: string }) {
  return Object.assign(new ToolplaneError('PROVIDER_ERROR', 'anthropic: it failed'), fields);
}

describe('stopFailureOf', () => {
  it("classes a failed request by the API's error type, then its status", () => {
    const cases: [Parameters<typeof providerError>[0], string][] = [
      [{ kind: 'http', status: 401 }, 'authentication_failed'],
      [{ kind: 'http', status: 403, apiErrorType: 'permission_error' }, 'authentication_failed'],
      [{ kind: 'http', status: 429 }, 'rate_limit'],
      [{ kind: 'http', status: 429, apiErrorType: 'insufficient_quota' }, 'billing_error'],
      [{ kind: 'http', status: 402 }, 'billing_error'],
      [{ kind: 'http', status: 400, apiErrorType: 'invalid_request_error' }, 'invalid_request'],
      [{ kind: 'http', status: 404 }, 'invalid_request'],
      [{ kind: 'http', status: 500 }, 'server_error'],
      [{ kind: 'stream', apiErrorType: 'overloaded_error' }, 'server_error'],
      [{ kind: 'connection' }, 'unknown'],
    ];
    for (const [fields, expected] of cases)
      expect(stopFailureOf(providerError(fields)), JSON.stringify(fields)).toEqual({
        error: expected,
        errorDetails: 'anthropic: it failed',
      });
  });

  it('is undefined for an abort and for errors that are not a failed request', () => {
    expect(stopFailureOf(providerError({ kind: 'aborted' }))).toBeUndefined();
    expect(stopFailureOf(new ToolplaneError('SESSION_CORRUPT', 'disk full'))).toBeUndefined();
    expect(stopFailureOf(new Error('HTTP 500'))).toBeUndefined();
  });
});
