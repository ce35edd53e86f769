import type { AnyTool } from '../contract/tool.js';

/** The tools usable this turn, in API order, with lookup by name or alias. */
export type ToolPool = {
  readonly tools: readonly AnyTool[];
  /** Finds a tool by exact name, then by alias; never by a guess. */
  find(name: string): AnyTool | undefined;
  /** Tools dropped while assembling, with why (for `/mcp`, debugging and tests). */
  readonly dropped: readonly DroppedTool[];
};

export type DroppedTool = {
  readonly name: string;
  readonly origin: AnyTool['origin'];
  readonly reason: 'denied' | 'disabled' | 'duplicate' | 'filtered';
};
