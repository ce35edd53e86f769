import { z } from 'zod';

/** `updatedPermissions` entries: only `addRules` is applied; other types are ignored. */
const permissionUpdateSchema = z.looseObject({
  type: z.string(),
  rules: z
    .array(z.union([z.string(), z.looseObject({ toolName: z.string(), ruleContent: z.string().optional() })]))
    .optional(),
  behavior: z.enum(['allow', 'deny', 'ask']).optional(),
  destination: z.enum(['session', 'localSettings', 'projectSettings', 'userSettings']).optional(),
});

const permissionRequestDecisionSchema = z.looseObject({
  behavior: z.enum(['allow', 'deny']),
  updatedInput: z.record(z.string(), z.unknown()).optional(),
  updatedPermissions: z.array(permissionUpdateSchema).optional(),
  message: z.string().optional(),
  interrupt: z.boolean().optional(),
});

const hookSpecificOutputSchema = z.looseObject({
  hookEventName: z.string().optional(),
  permissionDecision: z.enum(['allow', 'deny', 'ask', 'defer']).optional(),
  permissionDecisionReason: z.string().optional(),
  updatedInput: z.record(z.string(), z.unknown()).optional(),
  additionalContext: z.string().optional(),
  decision: permissionRequestDecisionSchema.optional(),
  updatedMCPToolOutput: z.unknown().optional(),
  updatedToolOutput: z.unknown().optional(),
});

/**
 * What a hook may answer (JSON on stdout, or a function hook's return value), in the reference
 * system's shape. Unknown fields are ignored.
 */
export const hookOutputSchema = z.looseObject({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
  decision: z.enum(['approve', 'block']).optional(),
  reason: z.string().optional(),
  hookSpecificOutput: hookSpecificOutputSchema.optional(),
});

/** A hook's answer. */
export type HookOutput = z.infer<typeof hookOutputSchema>;

/** How a hook's stdout reads. */
export type ParsedStdout =
  | { readonly kind: 'empty' }
  | { readonly kind: 'json'; readonly output: HookOutput }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'invalid'; readonly message: string };

/** Longest hook text passed on to the model or a person, in characters. */
export const HOOK_TEXT_LIMIT = 10_000;

/** Cuts hook text to {@link HOOK_TEXT_LIMIT} characters, saying so. */
export function capHookText(text: string): string {
  if (text.length <= HOOK_TEXT_LIMIT) return text;
  return `${text.slice(0, HOOK_TEXT_LIMIT)}… [${text.length - HOOK_TEXT_LIMIT} more characters cut]`;
}

/**
 * Reads a hook's stdout as the reference does: JSON only when its first non-space character is
 * `{`, otherwise plain text. JSON that does not parse, or does not have the hook-output shape, is
 * `invalid` with a message naming the problem.
 */
export function parseHookStdout(stdout: string): ParsedStdout {
  const trimmed = stdout.trim();
  if (trimmed === '') return { kind: 'empty' };
  if (!trimmed.startsWith('{')) return { kind: 'text', text: capHookText(trimmed) };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    return {
      kind: 'invalid',
      message: `printed output that starts with "{" but is not valid JSON (${(error as Error).message})`,
    };
  }
  const result = hookOutputSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.map(String).join('.')}: `;
    return { kind: 'invalid', message: `printed JSON of the wrong shape (${where}${issue?.message ?? 'invalid'})` };
  }
  return { kind: 'json', output: result.data };
}
