import { z } from 'zod';

const contentBlockSchema = z.looseObject({ type: z.string(), text: z.string().optional() });

/** A prompt as the Agent SDK sends it: `SDKUserMessage`. */
export const sdkUserMessageSchema = z.looseObject({
  type: z.literal('user'),
  message: z.looseObject({
    role: z.literal('user'),
    content: z.union([z.string(), z.array(contentBlockSchema)]),
  }),
  parent_tool_use_id: z.string().nullable().optional(),
  uuid: z.string().optional(),
});

export type SdkUserMessage = z.infer<typeof sdkUserMessageSchema>;

/**
 * The prompt text of a user message: its text blocks joined. Blocks of other kinds (images,
 * documents) are not carried into the prompt, and are named so the host learns it.
 */
export function promptOf(message: SdkUserMessage): { readonly text: string; readonly dropped: readonly string[] } {
  const { content } = message.message;
  if (typeof content === 'string') return { text: content, dropped: [] };
  const texts: string[] = [];
  const dropped: string[] = [];
  for (const block of content) {
    if (block.type === 'text' && block.text !== undefined) texts.push(block.text);
    else dropped.push(block.type);
  }
  return { text: texts.join('\n\n'), dropped };
}
