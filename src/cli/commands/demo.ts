import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRunArguments } from '../args.js';
import { packageRoot } from '../package-root.js';
import { createEventLog } from '../event-log.js';
import type { CommandIo } from '../headless.js';
import { createRuntime } from '../runtime/create-runtime.js';

/** The task the demo gives the scripted model. */
export const DEMO_PROMPT =
  'The test for average fails. Find the bug, fix it, run the tests, and report code statistics for the project.';

/** The bundled demo: a sample project, its scripted model, and its MCP server. */
export function demoFolder(): string {
  return join(packageRoot(), 'demo');
}

/**
 * `toolplane demo`: copies the sample project (with a failing test) into a temporary folder and
 * runs a session there with the scripted provider, offline. It searches and reads in parallel,
 * tries an Edit before reading (and is refused), reads and edits, runs the tests (allowed by a
 * rule in the demo's settings), is refused a read of `.env` by a deny rule and `npm publish` by a
 * PreToolUse hook, asks before writing a changelog (a dialog with `--tui`; refused headless, with no
 * one to ask), discovers an MCP tool through ToolSearch, keeps a todo list, gets an output too large
 * to inline, and ends with the tests passing. Prints the transcript's path. With `--tui` each answer
 * of the scripted model comes after a pause a person can follow, unless `--no-pacing` is given or
 * `TOOLPLANE_DEMO_PACING=0`.
 */
export async function runDemo(argv: readonly string[], io: CommandIo): Promise<number> {
  const started = performance.now();
  const source = demoFolder();
  const root = await mkdtemp(join(tmpdir(), 'toolplane-demo-'));
  const project = join(root, 'project');
  await cp(join(source, 'project'), project, { recursive: true });
  await mkdir(join(project, 'logs'));
  await writeFile(join(project, 'logs', 'build.log'), buildLog());
  // What the deny rule Read(./.env) keeps from the model.
  await writeFile(join(project, '.env'), 'DEMO_TOKEN=kept-from-the-model-by-a-deny-rule\n');
  const mcpConfig = {
    mcpServers: { 'project-tools': { command: process.execPath, args: [join(source, 'mcp-server.mjs')] } },
  };
  await writeFile(join(project, '.mcp.json'), `${JSON.stringify(mcpConfig, null, 2)}\n`);
  const tui = argv.includes('--tui');
  const paced = tui && !argv.includes('--no-pacing') && io.env['TOOLPLANE_DEMO_PACING'] !== '0';
  const script = (await readFile(join(source, 'script.jsonl'), 'utf8')).replaceAll('${PROJECT}', project);
  const scriptPath = join(root, 'script.jsonl');
  await writeFile(scriptPath, paced ? withPacing(script) : script);
  const configDir = join(root, 'config');
  const env = { ...io.env, TOOLPLANE_CONFIG_DIR: configDir };
  const write = (line: string) => io.stdout.write(`${line}\n`);

  write(`toolplane demo — a scripted model fixes a failing test in ${project}`);
  write(`task: ${DEMO_PROMPT}`);
  // The demo wrote this project itself: it trusts it for the run, as --trust-project does.
  const args = parseRunArguments([
    '--provider',
    'scripted',
    '--script',
    scriptPath,
    '--trust-project',
    ...argv.filter((arg) => arg !== '--tui' && arg !== '--no-pacing'),
  ]);
  const runtime = await createRuntime({
    args,
    cwd: project,
    env,
    homeDir: root,
    interactive: false,
    warn: (line) => io.stderr.write(`${line}\n`),
  });
  try {
    // The demo's ToolSearch step needs the MCP server's tools; a real session never waits.
    await runtime.mcp?.whenSettled({ signal: AbortSignal.timeout(10_000) });
    if (tui) {
      const { createInteractiveHost } = await import('../interactive.js');
      const { runInteractive } = await import('../tui/run-interactive.js');
      return await runInteractive(createInteractiveHost(runtime, { cwd: project, env, homeDir: root }), {
        initialPrompt: DEMO_PROMPT,
      });
    }
    const log = createEventLog(write);
    const unsubscribe = runtime.session.todoStore.subscribe((change) => {
      if (change.agentId !== 'main') return;
      write('  todo list:');
      for (const item of change.todos)
        write(`    [${item.status === 'completed' ? 'x' : item.status === 'in_progress' ? '~' : ' '}] ${item.content}`);
    });
    const generator = runtime.session.submit(DEMO_PROMPT, new AbortController().signal);
    let step = await generator.next();
    while (!step.done) {
      log(step.value);
      step = await generator.next();
    }
    unsubscribe();
    const result = step.value;
    await runtime.session.transcript().flush();
    write('');
    write(
      `result: ${result.status} after ${result.turns} turns in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    write(`transcript: ${runtime.session.transcript().path}`);
    write(`large results: ${runtime.session.transcript().resultsDirectory}`);
    write(`project: ${project}`);
    return result.status === 'success' ? 0 : 1;
  } finally {
    await runtime.session.close();
  }
}

/** How long the scripted model takes before each answer in the terminal UI, so a person can follow it. */
const DEMO_TURN_DELAY_MS = 1_200;

/** The script with each turn waiting {@link DEMO_TURN_DELAY_MS} before it streams. */
function withPacing(script: string): string {
  return script
    .split('\n')
    .map((line) =>
      line.trim() === '' ? line : JSON.stringify({ ...(JSON.parse(line) as object), delay_ms: DEMO_TURN_DELAY_MS }),
    )
    .join('\n');
}

/** A long, deterministic build log (about 290 KB): the demo's output too large to inline. */
function buildLog(): string {
  const lines: string[] = [];
  for (let step = 0; step < 4_000; step++) {
    const level = step % 7 === 0 ? 'WARN' : 'INFO';
    const day = String(1 + (step % 28)).padStart(2, '0');
    const minute = String(step % 60).padStart(2, '0');
    lines.push(
      `2026-11-${day}T10:${minute}:00Z ${level} build step ${step}: compiled module ${step % 113} in ${(step * 37) % 900} ms`,
    );
  }
  return `${lines.join('\n')}\n`;
}
