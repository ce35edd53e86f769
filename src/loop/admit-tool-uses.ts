import {
  inputDepthExceeds,
  refusedInput,
  TOO_DEEP_REASON,
  type AssistantContentBlock,
  type AssistantMessage,
  type Message,
  type ToolUseBlock,
} from '../messages/index.js';

/** Admits one assistant message's `tool_use` blocks into the conversation. */
export type ToolUseAdmission = {
  /**
   * The block as the conversation keeps it, records it and runs it; call it as each block
   * completes, before the block is recorded or run.
   */
  admit(block: ToolUseBlock): ToolUseBlock;
  /**
   * The provider's finished message with each `tool_use` replaced by its admitted block, and any
   * admitted block the message lacks appended; a block that never completed is admitted here.
   */
  settle(message: AssistantMessage): AssistantMessage;
};

/**
 * Where a model's `tool_use` enters the plane. Two shapes are refused here, before anything
 * serializes or walks them, and kept as a small placeholder input the plane answers with an
 * error result: an input nested more than `MAX_TOOL_INPUT_DEPTH` levels (the history, the
 * transcript and the next request would all overflow the stack on it), and an id already used in
 * `history` or earlier in the same message. A block with a reused id gets a fresh one
 * (`<id>_dup<n>`), so every id in the next request is unique and the refused block keeps exactly
 * one result of its own that the model sees.
 */
export function createToolUseAdmission(history: readonly Message[]): ToolUseAdmission {
  const used = new Set<string>();
  for (const message of history) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'tool_use') used.add(block.id);
      else if (block.type === 'tool_result') used.add(block.tool_use_id);
    }
  }
  // Admitted blocks by the id the model gave them, in order, for `settle`.
  const admittedById = new Map<string, ToolUseBlock[]>();

  const admit = (block: ToolUseBlock): ToolUseBlock => {
    let admitted = inputDepthExceeds(block.input) ? { ...block, input: refusedInput(TOO_DEEP_REASON) } : block;
    if (used.has(block.id)) {
      const id = freshId(block.id, used);
      admitted = { ...block, id, input: refusedInput(reusedIdReason(block.id, id)) };
    }
    used.add(admitted.id);
    const list = admittedById.get(block.id) ?? [];
    list.push(admitted);
    admittedById.set(block.id, list);
    return admitted;
  };

  return {
    admit,
    settle(message) {
      const pending = new Map([...admittedById].map(([id, blocks]) => [id, [...blocks]]));
      const content: AssistantContentBlock[] = message.content.map((block) => {
        if (block.type !== 'tool_use') return block;
        return pending.get(block.id)?.shift() ?? admit(block);
      });
      const missing = [...pending.values()].flat();
      return { role: 'assistant', content: [...content, ...missing] };
    },
  };
}

function freshId(id: string, used: ReadonlySet<string>): string {
  for (let n = 1; ; n++) {
    const candidate = `${id}_dup${n}`;
    if (!used.has(candidate)) return candidate;
  }
}

function reusedIdReason(id: string, fresh: string): string {
  return `its id ${id} was already used by an earlier tool_use in this conversation, and every call needs an id of its own. Nothing ran; it is recorded under the id ${fresh}, with this placeholder in place of its input. Call the tool again if the call is still needed.`;
}
