// A PreToolUse hook of the demo: publishing and pushing are left to CI. It reads the call on
// stdin and blocks (exit 2, the reason on stderr) a Bash command that publishes or pushes.
let text = '';
for await (const chunk of process.stdin) text += chunk;
const command = String(JSON.parse(text).tool_input?.command ?? '');
if (/\b(npm|pnpm|yarn)\s+publish\b|\bgit\s+push\b/.test(command)) {
  process.stderr.write(
    `${command.trim()}: publishing and pushing are done by CI, not by the agent (demo hook no-publish.mjs)\n`,
  );
  process.exit(2);
}
