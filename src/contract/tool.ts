import type { ZodType } from 'zod';
import type { CacheControl, ToolResultContentBlock } from '../messages/types.js';
import type { CallApproval, PermissionDecision, PermissionMode } from './permission.js';
import type { ServiceKey, Services } from './services.js';

/** A raw JSON Schema object (MCP tools, structured output), validated with Ajv. */
export type JsonSchemaObject = { readonly [key: string]: unknown };

/** Marks a raw JSON Schema as a tool's input schema (as opposed to a Zod schema). */
export type RawJsonSchema = { readonly kind: 'json-schema'; readonly schema: JsonSchemaObject };

/** Wraps a raw JSON Schema for use as a tool's `inputSchema`. */
export function jsonSchema(schema: JsonSchemaObject): RawJsonSchema {
  return { kind: 'json-schema', schema };
}

/** A tool's input schema: Zod (built-ins) or raw JSON Schema (MCP and other external tools). */
export type InputSchema<I> = ZodType<I> | RawJsonSchema;

/** Progress a running call reports (a line of Bash output, a page read, …), for people only. */
export type ToolProgress = {
  readonly kind: string;
  readonly message?: string;
  readonly data?: unknown;
};

/** What a call receives besides its input. */
export type ToolCallContext = {
  readonly toolUseId: string;
  /** Aborts when the turn is aborted, a sibling cancels the batch, or the call's time limit passes. */
  readonly signal: AbortSignal;
  /** The session's working folder (never a path the model supplies). */
  readonly cwd: string;
  readonly sessionId: string;
  /** `main` for the top-level agent, else the subagent's id. */
  readonly agentId: string;
  readonly permissionMode: PermissionMode;
  readonly services: Services;
  readonly reportProgress: (progress: ToolProgress) => void;
  /**
   * How this call was approved, set by the plane just before `call()` (absent when a host calls a
   * tool directly). Bash picks its sandbox profile from it.
   */
  readonly approval?: CallApproval;
};

/** Context for checks that run before the call (validation, permissions). */
export type ToolCheckContext = Omit<ToolCallContext, 'reportProgress' | 'approval'>;

/** The outcome of a tool's business preconditions. `message` is written for the model. */
export type ValidationResult =
  { readonly ok: true } | { readonly ok: false; readonly message: string; readonly code?: string };

/** What the model receives for a successful call. */
export type MappedResult = {
  readonly content: string | readonly ToolResultContentBlock[];
  /** The tool ran but the outcome is a failure the model should see as one (non-zero exit, …). */
  readonly isError?: boolean;
  /**
   * Lines after the content (how a command ended, …) that stay whole when size governance replaces
   * the content with a preview. Joined to the content with a newline otherwise.
   */
  readonly trailer?: string;
  /**
   * The whole output is already in this file, and the content may hold only part of it: size
   * governance answers with a preview and this path instead of saving the content again.
   */
  readonly fullOutput?: { readonly path: string; readonly bytes: number };
};

/** What a person interrupting the turn does to a running call. */
export type InterruptBehavior = 'cancel' | 'block';

/** Where a tool comes from: pool order puts built-ins first and lets them win name clashes. */
export type ToolOrigin = 'builtin' | 'external';

/**
 * Which built-in a tool is. Only the built-in factories set it (through `defineBuiltinTool`); the
 * plane judges a tool as a built-in by this, never by its name, so a host's own `Grep` is not Grep.
 */
export const BUILTIN_KINDS = [
  'Read',
  'Edit',
  'Write',
  'NotebookEdit',
  'Glob',
  'Grep',
  'Bash',
  'WebFetch',
  'WebSearch',
  'Agent',
  'TodoWrite',
  'ToolSearch',
  'TaskOutput',
  'TaskStop',
  'AskUserQuestion',
  'EnterPlanMode',
  'ExitPlanMode',
  'StructuredOutput',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
] as const;

/** One of {@link BUILTIN_KINDS}. */
export type BuiltinKind = (typeof BUILTIN_KINDS)[number];

/**
 * An input field that holds a path the call reads or writes. Path rules written for the tool
 * (`WriteReport(./reports/**)`) match it, and so do Read deny rules (both accesses) and Edit deny
 * rules (writes), with the same path semantics as for Read and Edit.
 */
export type PathField = { readonly field: string; readonly access: 'read' | 'write' };

/** A service key of any value type, as tools list the services they read. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyServiceKey = ServiceKey<any>;

/** Options passed to `prompt()` when the description is rendered (once per session). */
export type PromptOptions = {
  /** Names of the tools in the same pool, for descriptions that mention their siblings. */
  readonly toolNames: readonly string[];
};

/** A tool as authors write it: the factory fills every omitted field with a fail-safe default. */
export type ToolDefinition<I, O> = {
  readonly name: string;
  readonly inputSchema: InputSchema<I>;
  /** The model-facing description. */
  readonly prompt: string | ((options: PromptOptions) => string);
  readonly origin?: ToolOrigin;
  readonly aliases?: readonly string[];
  /** Extra words for ToolSearch, weighted above the description. */
  readonly searchHint?: string;
  /** Announce by name only; the schema is loaded through ToolSearch. */
  readonly shouldDefer?: boolean;
  /** Never deferred, whatever the deferral policy says. */
  readonly alwaysLoad?: boolean;
  readonly strict?: boolean;
  readonly cacheControl?: CacheControl;
  readonly maxResultSizeChars?: number;
  /** The call's time limit in ms; the call is aborted and answered with a timeout past it. */
  readonly timeoutMs?: number;
  readonly interruptBehavior?: InterruptBehavior;
  /**
   * A failure of this tool cancels the unfinished later calls of the same message that could depend
   * on it: those not read-only for their input (Bash does). Reads and searches run on.
   */
  readonly errorCancelsSiblings?: boolean;
  /** For external tools: the server and the tool's own name there. */
  readonly external?: { readonly server: string; readonly tool: string };
  /** Services the tool cannot work without: a session or pool without one of them fails at start. */
  readonly services?: readonly AnyServiceKey[];
  /** Services the tool reads when they are registered and does without otherwise. */
  readonly optionalServices?: readonly AnyServiceKey[];
  /** Input fields that hold paths, for path rules (see {@link PathField}). */
  readonly paths?: readonly PathField[];
  isEnabled?(): boolean;
  isReadOnly?(input: I): boolean;
  isConcurrencySafe?(input: I): boolean;
  isDestructive?(input: I): boolean;
  validateInput?(input: I, context: ToolCheckContext): ValidationResult | Promise<ValidationResult>;
  checkPermissions?(input: I, context: ToolCheckContext): PermissionDecision | Promise<PermissionDecision>;
  call(input: I, context: ToolCallContext): Promise<O>;
  /** Maps the output for the model. Default: strings as they are, anything else as JSON. */
  mapResult?(output: O, toolUseId: string): MappedResult;
  /** The name people see (`Read`, `Update`, `Fetch`, …). */
  userFacingName?(input: I | undefined): string;
  /** One line describing this input, for approval prompts and the call's row. */
  describeInput?(input: I): string;
  /** The value matched by path rules (`Read(./src/**)`): the call's file path, if any. */
  getPath?(input: I): string | undefined;
};

/** A tool with every runtime field filled: what the pool, the schema stage and the plane use. */
export type Tool<I = unknown, O = unknown> = {
  readonly name: string;
  readonly inputSchema: InputSchema<I>;
  readonly prompt: string | ((options: PromptOptions) => string);
  readonly origin: ToolOrigin;
  readonly aliases: readonly string[];
  readonly searchHint: string | undefined;
  readonly shouldDefer: boolean;
  readonly alwaysLoad: boolean;
  readonly strict: boolean | undefined;
  readonly cacheControl: CacheControl | undefined;
  readonly maxResultSizeChars: number;
  readonly timeoutMs: number | undefined;
  readonly interruptBehavior: InterruptBehavior;
  readonly errorCancelsSiblings: boolean;
  readonly external: { readonly server: string; readonly tool: string } | undefined;
  /** Set by the built-in factories only; undefined for every other tool, whatever its name. */
  readonly builtin: BuiltinKind | undefined;
  readonly services: readonly AnyServiceKey[];
  readonly optionalServices: readonly AnyServiceKey[];
  readonly paths: readonly PathField[];
  isEnabled(): boolean;
  isReadOnly(input: I): boolean;
  isConcurrencySafe(input: I): boolean;
  isDestructive(input: I): boolean;
  validateInput(input: I, context: ToolCheckContext): ValidationResult | Promise<ValidationResult>;
  checkPermissions(input: I, context: ToolCheckContext): PermissionDecision | Promise<PermissionDecision>;
  call(input: I, context: ToolCallContext): Promise<O>;
  mapResult(output: O, toolUseId: string): MappedResult;
  userFacingName(input: I | undefined): string;
  describeInput(input: I): string;
  getPath(input: I): string | undefined;
};

/** A tool of any input and output type, as the pool holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any, any>;
