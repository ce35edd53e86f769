type Line = { type: string; block?: { id: string }; message?: { role: string; content: unknown } };

type Block = { type: string; id?: string; tool_use_id?: string; content?: unknown };

/** What a transcript says about its calls: every tool_use id, each id's results, and more. */
export type TranscriptPairing = {
  /** Every tool_use id, from messages and write-ahead lines, in order of first appearance. */
  readonly uses: Set<string>;
  /** Each id's results (their content as JSON), in order. */
  readonly answers: Map<string, string[]>;
  readonly assistantMessages: number;
  /** Line numbers (1-based) that do not parse: lines torn by a kill mid-write. */
  readonly tornLines: readonly number[];
};

/** Reads a transcript's pairing; a torn line (a kill mid-write) is counted, not read. */
export function pairing(text: string): TranscriptPairing {
  const uses = new Set<string>();
  const answers = new Map<string, string[]>();
  const tornLines: number[] = [];
  let assistantMessages = 0;
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    let line: Line;
    try {
      line = JSON.parse(raw) as Line;
    } catch {
      tornLines.push(index + 1);
      return;
    }
    if (line.type === 'tool-use' && line.block) uses.add(line.block.id);
    if (line.type !== 'message' || !line.message || typeof line.message.content === 'string') return;
    if (line.message.role === 'assistant') assistantMessages++;
    for (const block of line.message.content as Block[]) {
      if (block.type === 'tool_use') uses.add(block.id!);
      if (block.type === 'tool_result')
        answers.set(block.tool_use_id!, [...(answers.get(block.tool_use_id!) ?? []), JSON.stringify(block.content)]);
    }
  });
  return { uses, answers, assistantMessages, tornLines };
}
