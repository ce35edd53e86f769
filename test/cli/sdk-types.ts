import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHECKED_FILE = join(ROOT, 'test', 'cli', '__sdk_shape_check__.ts');

/** The Agent SDK type a message of ours must be, by its `type` and `subtype` (`never` when none fits). */
export function sdkTypeOf(message: unknown): string {
  const { type, subtype } = (message ?? {}) as { type?: unknown; subtype?: unknown };
  if (type === 'result') return subtype === 'success' ? 'SDKResultSuccess' : 'SDKResultError';
  if (type === 'system' && subtype === 'init') return 'SDKSystemMessage';
  if (type === 'system' && subtype === 'api_retry') return 'SDKAPIRetryMessage';
  if (type === 'system' && subtype === 'hook_started') return 'SDKHookStartedMessage';
  if (type === 'system' && subtype === 'hook_response') return 'SDKHookResponseMessage';
  if (type === 'assistant') return 'SDKAssistantMessage';
  if (type === 'user') return 'SDKUserMessage';
  if (type === 'stream_event') return 'SDKPartialAssistantMessage';
  return 'never';
}

/**
 * Checks each message against the message types the Agent SDK publishes (its `sdk.d.ts`), with
 * the TypeScript compiler itself: each becomes an object literal assigned to its type, so a
 * missing required key, a key the type does not declare, and a value of the wrong type, at any
 * depth, are each an error. Returns the errors, each naming the message and its type.
 */
export function sdkTypeErrors(messages: readonly unknown[]): string[] {
  const names = [...new Set(messages.map(sdkTypeOf).filter((name) => name !== 'never'))];
  const source = [
    names.length > 0 ? `import type { ${names.join(', ')} } from '@anthropic-ai/claude-agent-sdk';` : '',
    ...messages.map((message, index) => `export const m${index}: ${sdkTypeOf(message)} = ${JSON.stringify(message)};`),
  ].join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    exactOptionalPropertyTypes: false,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, create) =>
    fileName === CHECKED_FILE
      ? ts.createSourceFile(fileName, source, language)
      : getSourceFile(fileName, language, onError, create);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => fileName === CHECKED_FILE || fileExists(fileName);
  const program = ts.createProgram([CHECKED_FILE], options, host);
  const file = program.getSourceFile(CHECKED_FILE)!;
  return ts.getPreEmitDiagnostics(program, file).map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (diagnostic.file !== file || diagnostic.start === undefined) return text;
    const line = file.getLineAndCharacterOfPosition(diagnostic.start).line;
    const message = messages[line - (names.length > 0 ? 1 : 0)];
    return `message ${line - (names.length > 0 ? 1 : 0)} (${sdkTypeOf(message)}): ${text}`;
  });
}
