import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Project instruction files read from the working folder and its parents, nearest last. */
export const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md'] as const;
const MAX_INSTRUCTION_CHARS = 40_000;

/** One instruction file that was found. */
export type ProjectInstructions = { readonly path: string; readonly text: string };

/**
 * Reads `AGENTS.md` and `CLAUDE.md` from `cwd` and each parent up to the filesystem root (or
 * `stopAt`), ordered from the outermost folder to `cwd`, so nearer instructions come later and
 * win. Each file is capped at 40,000 characters; unreadable files are skipped.
 */
export async function loadProjectInstructions(
  cwd: string,
  options: { readonly stopAt?: string; readonly signal?: AbortSignal } = {},
): Promise<ProjectInstructions[]> {
  const folders: string[] = [];
  for (let folder = cwd; ; folder = dirname(folder)) {
    folders.push(folder);
    if (folder === options.stopAt || dirname(folder) === folder) break;
  }
  const found: ProjectInstructions[] = [];
  for (const folder of folders.reverse()) {
    for (const name of INSTRUCTION_FILES) {
      const path = join(folder, name);
      try {
        const text = await readFile(path, { encoding: 'utf8', signal: options.signal });
        found.push({
          path,
          text:
            text.length > MAX_INSTRUCTION_CHARS
              ? `${text.slice(0, MAX_INSTRUCTION_CHARS)}\n[cut at ${MAX_INSTRUCTION_CHARS} characters]`
              : text,
        });
      } catch {
        // Absent or unreadable: nothing to add.
      }
    }
  }
  return found;
}

/** The "using your tools" guidance every session gets. */
export const TOOL_USE_GUIDANCE = `# Using your tools
- Prefer the dedicated tools to shell commands: Read to read files (not cat, head or tail), Grep to search contents (not grep or rg), Glob to find files by name (not find or ls), Edit and Write to change files (not sed, awk or echo redirection). Use Bash for what only a shell can do: running builds, tests, git and other programs.
- Read a file before you edit it. Edit refuses to change a file you have not read, or one that changed since you read it: read it again and retry with what is there now.
- When several calls do not depend on each other, make them in the same response; read-only calls then run in parallel.
- A refusal (a denied permission, a blocked hook, a failed check) is an answer, not a glitch: do not repeat the same call. Change your approach, or ask the user.
- Tool results can be cut or saved to a file when they are large; read the saved file in parts when you need the rest.`;

/** Added to the guidance when the session offers ToolSearch. */
export const DEFERRED_TOOLS_GUIDANCE =
  '- Some tools are deferred: only their names are listed. Load one with ToolSearch (for example "select:NAME", or keywords) before you call it.';

/**
 * Builds the system prompt: who the agent is, the environment, the tool guidance, the project's
 * instructions, and the caller's additions.
 */
export function buildSystemPrompt(options: {
  readonly cwd: string;
  readonly instructions: readonly ProjectInstructions[];
  readonly append?: string;
  readonly platform?: string;
  readonly date?: string;
  readonly additionalDirectories?: readonly string[];
  /** Whether the session offers ToolSearch (deferred tools); default true. */
  readonly toolSearch?: boolean;
}): string {
  const parts = [
    "You are toolplane, a coding agent working in the user's project through tools. Be direct and accurate; do the task, then report briefly what you did.",
    `# Environment\n- Working folder: ${options.cwd}${options.additionalDirectories && options.additionalDirectories.length > 0 ? `\n- Additional folders: ${options.additionalDirectories.join(', ')}` : ''}\n- Platform: ${options.platform ?? process.platform}\n- Date: ${options.date ?? new Date().toISOString().slice(0, 10)}`,
    options.toolSearch === false ? TOOL_USE_GUIDANCE : `${TOOL_USE_GUIDANCE}\n${DEFERRED_TOOLS_GUIDANCE}`,
  ];
  for (const file of options.instructions) parts.push(`# Project instructions from ${file.path}\n${file.text.trim()}`);
  if (options.append) parts.push(options.append);
  return parts.join('\n\n');
}
