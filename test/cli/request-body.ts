/** The text of the `tool_result` for call `id` in a recorded request body (throws when there is none). */
export function toolResultText(body: unknown, id: string): string {
  for (const message of (body as { messages: { content: unknown }[] }).messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as { type: string; tool_use_id?: string; content?: unknown }[])
      if (block.type === 'tool_result' && block.tool_use_id === id)
        return typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
  }
  throw new Error(`no result for ${id}`);
}
