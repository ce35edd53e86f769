import { ToolplaneError } from '../errors/toolplane-error.js';
import { inputDepthExceeds } from '../messages/tool-input-shape.js';
import type { MappedResult, PathField, Tool, ToolDefinition, ValidationResult } from './tool.js';
import type { PassthroughDecision } from './permission.js';

/** Result size limit when a tool names none, in characters. */
export const DEFAULT_MAX_RESULT_SIZE_CHARS = 100_000;

/** The API's tool-name pattern. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** The `getPath` of a tool that names none: path rules read its declared `paths` only. */
export const NO_PATH = (): undefined => undefined;

const VALID: ValidationResult = Object.freeze({ ok: true });
const PASSTHROUGH: PassthroughDecision = Object.freeze({ behavior: 'passthrough' });

function defaultMapResult(output: unknown): MappedResult {
  if (typeof output === 'string') return { content: output };
  if (output === undefined || output === null) return { content: '' };
  return { content: JSON.stringify(output, null, 2) };
}

/**
 * Builds a tool from a plain definition, filling fail-safe defaults: enabled, not read-only, not
 * concurrency-safe, not destructive, permission passthrough (the rules and the mode decide), no
 * time limit, interrupts cancel, result size {@link DEFAULT_MAX_RESULT_SIZE_CHARS}.
 * Throws `INVALID_TOOL_DEFINITION` for a name the API would reject.
 */
export function defineTool<I, O>(definition: ToolDefinition<I, O>): Tool<I, O> {
  if (!TOOL_NAME_PATTERN.test(definition.name)) {
    throw new ToolplaneError(
      'INVALID_TOOL_DEFINITION',
      `Tool name ${JSON.stringify(definition.name)} does not match ${TOOL_NAME_PATTERN.source}.`,
    );
  }
  const limit = definition.maxResultSizeChars ?? DEFAULT_MAX_RESULT_SIZE_CHARS;
  if (!(limit > 0)) {
    throw new ToolplaneError(
      'INVALID_TOOL_DEFINITION',
      `Tool ${definition.name}: maxResultSizeChars must be positive.`,
    );
  }
  const name = definition.name;
  return {
    name,
    inputSchema: definition.inputSchema,
    prompt: definition.prompt,
    origin: definition.origin ?? 'builtin',
    aliases: definition.aliases ?? [],
    searchHint: definition.searchHint,
    shouldDefer: definition.shouldDefer ?? false,
    alwaysLoad: definition.alwaysLoad ?? false,
    strict: definition.strict,
    cacheControl: definition.cacheControl,
    maxResultSizeChars: limit,
    timeoutMs: definition.timeoutMs,
    interruptBehavior: definition.interruptBehavior ?? 'cancel',
    errorCancelsSiblings: definition.errorCancelsSiblings ?? false,
    external: definition.external,
    builtin: undefined,
    services: definition.services ?? [],
    optionalServices: definition.optionalServices ?? [],
    paths: checkedPaths(definition),
    isEnabled: definition.isEnabled ?? (() => true),
    isReadOnly: definition.isReadOnly ?? (() => false),
    isConcurrencySafe: definition.isConcurrencySafe ?? (() => false),
    isDestructive: definition.isDestructive ?? (() => false),
    validateInput: definition.validateInput ?? (() => VALID),
    checkPermissions: definition.checkPermissions ?? (() => PASSTHROUGH),
    call: definition.call,
    mapResult: definition.mapResult ?? defaultMapResult,
    userFacingName: definition.userFacingName ?? (() => name),
    describeInput: definition.describeInput ?? ((input: I) => summarizeInput(input)),
    getPath: definition.getPath ?? NO_PATH,
  };
}

function checkedPaths<I, O>(definition: ToolDefinition<I, O>): readonly PathField[] {
  const paths = definition.paths ?? [];
  for (const declared of paths) {
    if (typeof declared.field !== 'string' || declared.field === '' || !['read', 'write'].includes(declared.access)) {
      throw new ToolplaneError(
        'INVALID_TOOL_DEFINITION',
        `Tool ${definition.name}: each paths entry needs a field name and access 'read' or 'write'.`,
      );
    }
  }
  return paths;
}

/** A short one-line rendering of an input object, for approval prompts of tools that give none. */
export function summarizeInput(input: unknown, maxChars = 160): string {
  // Rendering walks the input recursively; one the plane refuses for its depth is not rendered.
  if (inputDepthExceeds(input)) return '(input nested too deeply to show)';
  let text: string;
  try {
    text = JSON.stringify(input) ?? String(input);
  } catch {
    text = String(input);
  }
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}
