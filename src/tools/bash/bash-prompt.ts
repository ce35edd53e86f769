/** Default time limit of a Bash command, in ms. */
export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
/** Largest time limit a Bash call may ask for, in ms. */
export const MAX_BASH_TIMEOUT_MS = 600_000;

/** The Bash tool's model-facing description. */
export const BASH_PROMPT = `Runs a shell command (bash) and returns its output, stderr and exit code.

The working folder persists between calls: a \`cd\` in one command holds for the next. Environment variables and shell functions do not persist; each call starts a fresh shell with no stdin, so interactive programs (editors, pagers, prompts for a password) will not work; pass flags such as \`--yes\` or \`--no-pager\` instead.

When to use it: building, testing, running scripts, git, package managers, and other programs that only exist as commands.

When not to use it: to read, search or change files, use the dedicated tools, which are faster, safer and easier for the person to review:
- read a file: Read, not cat, head, tail or less;
- find files by name: Glob, not find or ls -R;
- search file contents: Grep, not grep or rg;
- change a file: Edit or Write, not sed, awk, echo > file or heredocs.

How to write commands:
- Quote every path that may contain spaces or special characters: cd "/path/with spaces".
- Prefer absolute paths, and avoid \`cd\` unless the person asks for it or the change of folder is the point.
- Chain dependent steps with && so a failure stops the chain; use ; only when later steps must run regardless.
- Independent commands can be sent as separate Bash calls in the same turn.
- Give a short \`description\` (5-10 words) of what the command does, for the person watching.

Git:
- Commit, push, rebase, reset or change branches only when the person asks for it; never change git config.
- Never use destructive or bypassing options (push --force to a shared branch, reset --hard, clean -f, --no-verify) unless the person explicitly asks for exactly that.
- Interactive commands (git rebase -i, git add -i) cannot work here; pass the message with -m and use non-interactive forms.
- Before committing, look at git status and git diff so the commit holds only what you meant, and never commit files that look like secrets (.env, keys, credentials).

Limits:
- \`timeout\` is in milliseconds: default ${DEFAULT_BASH_TIMEOUT_MS} (2 minutes), at most ${MAX_BASH_TIMEOUT_MS} (10 minutes). When it passes, the command and every process it started are killed, and the result holds the output printed until then.
- Long output (over 30000 characters) is saved whole to a file: the result shows its first 2 KB or so and the file's path; Read or Grep that file instead of running the command again.
- Servers, watchers and other long-running processes must use \`run_in_background: true\`. The call then returns a task id at once; read the output with TaskOutput and stop the process with TaskStop. Do not append \`&\` to a command yourself.
- Model-provider credentials (API keys, tokens) are removed from the environment.

Sandbox (when the session has one, as the toolplane command does): every command runs inside an OS sandbox chosen by how it was approved.
- A command judged read-only (ls, cat, grep, git status, …) runs read-only: nothing is writable but a private /tmp (also $TMPDIR, which Read can open), and there is no network.
- Any other approved command runs in the workspace sandbox: the working folders, $TMPDIR and tool caches (~/.npm, ~/.cache) are writable, the rest is read-only; git hooks and config, agent settings (.toolplane, .claude, .mcp.json, …) and CI workflows stay read-only.
- In both, credential stores (~/.ssh, ~/.aws, …) and files the rules deny to Read are unreadable, Unix sockets cannot be opened, and the agent's own process is invisible.
- "Read-only file system", "Permission denied" or a network error usually means the sandbox blocked it; the result says so. Use Write or Edit to change files, run_in_background for servers, and only when the task truly needs it set dangerouslyDisableSandbox: true, which asks the user to approve that one command running outside the sandbox.

On failure: a non-zero exit code comes back as an error with stdout and stderr; read them, fix the cause, and run again rather than repeating the same command. A command that timed out should be run in the background or given a larger timeout, or split into smaller steps.`;
