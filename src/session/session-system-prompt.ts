import { buildSystemPrompt, loadProjectInstructions } from '../loop/system-prompt.js';

/** Options of {@link loadSessionSystemPrompt}. */
export type SessionSystemPromptOptions = {
  /** The session's working folder: named in the prompt; its instruction files (and its parents') are read. */
  readonly cwd: string;
  /** The host's own text, added last. */
  readonly append?: string;
  /** Working folders besides `cwd`, named in the prompt. */
  readonly additionalDirectories?: readonly string[];
  /** Whether the session offers ToolSearch ({@link offersToolSearch}); default true. */
  readonly toolSearch?: boolean;
  readonly signal?: AbortSignal;
};

/**
 * The system prompt of a session working in `cwd`: who the agent is, the environment, the tool
 * guidance, the project's `AGENTS.md` and `CLAUDE.md` (from the outermost folder in), and `append`.
 */
export async function loadSessionSystemPrompt(options: SessionSystemPromptOptions): Promise<string> {
  return (await loadSessionPrompt(options)).system;
}

/**
 * The same system prompt, with the instruction files it holds, in the order it holds them (for a
 * session's `instructionFiles`, so InstructionsLoaded hooks hear of them).
 */
export async function loadSessionPrompt(
  options: SessionSystemPromptOptions,
): Promise<{ readonly system: string; readonly instructionFiles: readonly string[] }> {
  const instructions = await loadProjectInstructions(options.cwd, options.signal ? { signal: options.signal } : {});
  const system = buildSystemPrompt({
    cwd: options.cwd,
    instructions,
    ...(options.append ? { append: options.append } : {}),
    ...(options.additionalDirectories ? { additionalDirectories: options.additionalDirectories } : {}),
    ...(options.toolSearch !== undefined ? { toolSearch: options.toolSearch } : {}),
  });
  return { system, instructionFiles: instructions.map((file) => file.path) };
}
