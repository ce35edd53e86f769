import { defineTool, summarizeInput } from '../contract/define-tool.js';
import type { DecisionReason, PermissionMode, PermissionRuleEntry } from '../contract/permission.js';
import { describeReason } from '../contract/permission.js';
import { createServices } from '../contract/services.js';
import { BUILTIN_KINDS, jsonSchema, type AnyTool, type ToolDefinition } from '../contract/tool.js';
import { defineBuiltinTool } from '../contract/define-builtin-tool.js';
import { initShellParser } from './bash-parser.js';
import { createPermissionEngine } from './permission-engine.js';
import { ruleAllowsAnyCode } from './rule-allows-any-code.js';
import { inputField } from './declared-paths.js';
import { describeBuiltinTool } from './tool-descriptors.js';

/** The answer of `toolplane permissions explain`. */
export type ExplainedDecision = {
  readonly decision: 'allow' | 'deny' | 'ask';
  /** One line: why, with the rule and source, the mode, or the safety check. */
  readonly reason: string;
  readonly rule: string | null;
  readonly source: string | null;
  /**
   * When an allow rule decided and that rule allows any code by design (`Bash(python:*)`,
   * `Bash(docker run:*)`): why, in words, for a warning. `null` otherwise.
   */
  readonly allowsAnyCode: string | null;
};

/** What to explain: one call, the session it would run in, and the rules in effect. */
export type ExplainOptions = {
  readonly toolName: string;
  readonly input: unknown;
  readonly rules: readonly PermissionRuleEntry[];
  readonly mode?: PermissionMode;
  readonly cwd: string;
  readonly additionalDirectories?: readonly string[];
  readonly homeDir: string;
  /** Folders protected like `.git` (the engine's `protectedFolders`). */
  readonly protectedFolders?: readonly string[];
  /** The tool itself, when the host has it; else a built-in descriptor (or a generic tool) stands in. */
  readonly tool?: AnyTool;
  readonly signal?: AbortSignal;
};

/** A stand-in tool built from the descriptor table; it never runs. */
function standIn(toolName: string): AnyTool {
  const descriptor = describeBuiltinTool(toolName);
  const external = toolName.startsWith('mcp__');
  const pathField = descriptor?.pathField;
  const definition: ToolDefinition<unknown, never> = {
    name: toolName,
    inputSchema: jsonSchema({ type: 'object' }),
    prompt: '',
    origin: external ? 'external' : 'builtin',
    isReadOnly: () => descriptor?.readOnly ?? false,
    ...(pathField
      ? {
          getPath: (input: unknown) => {
            const value = inputField(input, pathField);
            return typeof value === 'string' ? value : undefined;
          },
        }
      : {}),
    call: () => Promise.reject(new Error('permissions explain never runs a tool')),
  };
  const kind = BUILTIN_KINDS.find((known) => known === descriptor?.name);
  return kind === undefined ? defineTool(definition) : defineBuiltinTool(kind, definition);
}

function ruleOf(reason: DecisionReason): { readonly rule: string | null; readonly source: string | null } {
  return reason.kind === 'rule'
    ? { rule: reason.rule, source: reason.file ?? reason.source }
    : { rule: null, source: null };
}

/**
 * Explains the decision the plane would make for a call before any approver is asked (`ask`
 * where a person would be asked), without running anything. Hooks are not run.
 */
export async function explainDecision(options: ExplainOptions): Promise<ExplainedDecision> {
  await initShellParser();
  const engine = createPermissionEngine({
    rules: options.rules,
    mode: options.mode ?? 'default',
    cwd: options.cwd,
    additionalDirectories: options.additionalDirectories ?? [],
    homeDir: options.homeDir,
    ...(options.protectedFolders ? { protectedFolders: options.protectedFolders } : {}),
  });
  const tool = options.tool ?? standIn(options.toolName);
  const signal = options.signal ?? new AbortController().signal;
  const decision = await engine.decide({
    tool,
    input: options.input,
    toolUseId: 'explain',
    context: {
      toolUseId: 'explain',
      signal,
      cwd: options.cwd,
      sessionId: 'explain',
      agentId: 'main',
      permissionMode: engine.mode,
      services: createServices(),
    },
  });
  if (decision.behavior === 'passthrough') {
    const reason =
      decision.message ?? `no rule or mode allows ${options.toolName} ${summarizeInput(options.input, 80)}`;
    return { decision: 'ask', reason, rule: null, source: null, allowsAnyCode: null };
  }
  const because = describeReason(decision.reason);
  const message = decision.behavior === 'allow' ? `allowed by ${because}` : decision.message;
  const named = ruleOf(decision.reason);
  const anyCode = decision.behavior === 'allow' && named.rule !== null ? ruleAllowsAnyCode(named.rule) : undefined;
  return { decision: decision.behavior, reason: message, ...named, allowsAnyCode: anyCode ?? null };
}
