/** The text of `toolplane --help`. */
export const HELP_TEXT = `toolplane — a coding agent on the toolplane tool control plane

Usage:
  toolplane [options] [prompt]           interactive terminal UI (prompt optional)
  toolplane -p "PROMPT" [options]        run one task headless and exit (prompt may come on stdin)
  toolplane demo [--tui]                 offline demo in a temporary copy of a sample project
  toolplane permissions explain --tool NAME --input JSON [--cwd DIR] [--settings FILE|JSON]
                                         [--permission-mode MODE] [--trust-project] [--json]
  toolplane tool-search --catalog FILE.jsonl (--query TEXT | --queries FILE.jsonl) [--max-results N]
  toolplane mcp list [--mcp-config FILE] [--json] [--timeout MS] [--trust-project]
  toolplane hooks list [--json] [--settings FILE|JSON] [--trust-project]
  toolplane sessions list [--json]
  toolplane sessions trace <SESSION_ID|TRANSCRIPT> [--out FILE]
  toolplane doctor [--json] [--settings FILE|JSON]   can Bash commands be sandboxed here; the policy
  toolplane trust [DIR]                  let DIR's own settings, hooks and MCP servers apply (every run)
  toolplane trust --revoke [DIR]         stop trusting DIR
  toolplane trust --list [--json]        the folders trusted or refused

Options:
  -p, --print                     headless: run the prompt, print the result, exit
  --output-format FORMAT          text (default), json (one result object), stream-json (one event per line)
  --model NAME                    model (default: the provider's; ANTHROPIC_MODEL / OPENAI_MODEL)
  --provider NAME                 anthropic | openai | scripted (default: from the environment)
  --base-url URL                  the provider's base URL (ANTHROPIC_BASE_URL / OPENAI_BASE_URL)
  --script FILE                   scripted provider: a JSONL script of turns or a recorded transcript
  --permission-mode MODE          default | acceptEdits | plan | dontAsk | bypassPermissions
  --allowedTools RULES            allow rules, e.g. "Read" "Bash(git diff:*)" (comma or space separated)
  --disallowedTools RULES         deny rules, same form
  --settings FILE|JSON            an extra settings file or inline JSON (above project settings)
  --mcp-config FILE               MCP servers ({"mcpServers": {...}}); may repeat
  --max-turns N                   stop after N model requests
  --max-retries N                 retries of a failed model request (default 10, about 2.5 minutes; setting maxRetries)
  --stream-idle-timeout MS        abandon and retry a response with no event for MS ms (default 90000; setting streamIdleTimeoutMs)
  --append-system-prompt TEXT     added to the end of the system prompt
  --json-schema SCHEMA|FILE       with -p: the result must be JSON matching this schema (StructuredOutput tool)
  -r, --resume ID                 continue the session with this id
  -c, --continue                  continue the latest session in this folder
  --add-dir DIR                   another working folder; may repeat
  --cwd DIR                       the working folder (default: the current one)
  --trust-project                 trust the working folder for this run (its allow rules, mode, hooks, MCP servers)
  -d, --debug                     log tool calls, decisions and the transcript path on stderr
  -h, --help                      this help
  -v, --version                   the version

Environment:
  ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_MODEL    Anthropic provider
  OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL             OpenAI-compatible provider
  TOOLPLANE_CONFIG_DIR                                      user folder (default ~/.toolplane)
  TOOLPLANE_BWRAP                                           the bubblewrap binary for the sandbox (default: found)
  TOOLPLANE_TRUST_PROJECT=1                                 trust the working folder (CI, programs that drive toolplane)

Settings: /etc/toolplane/managed-settings.json, --settings, .toolplane/settings.local.json,
.toolplane/settings.json, ~/.toolplane/settings.json — the same "permissions" and "hooks"
schema as Claude Code's settings. In a folder nobody trusted, headless runs included, a
project's own files only tighten: their deny and ask rules apply, the rest waits for trust.

Exit codes: 0 success, 1 error, 2 usage error, 130 interrupted (SIGINT), 143 terminated (SIGTERM).
`;
