import { JSON_SCHEMA_NEEDS_PRINT, parseRunArguments, UsageError } from './args.js';
import { HELP_TEXT } from './help-text.js';
import type { CommandIo } from './headless.js';

const SUBCOMMANDS = new Set(['permissions', 'tool-search', 'mcp', 'hooks', 'sessions', 'demo', 'doctor', 'trust']);

/** Runs the command line and resolves with the exit code. */
export async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    const first = argv[0];
    if (first !== undefined && SUBCOMMANDS.has(first)) return await runSubcommand(first, argv.slice(1), io);
    const args = parseRunArguments(argv);
    if (args.help) {
      io.stdout.write(HELP_TEXT);
      return 0;
    }
    if (args.version) {
      const { packageVersion } = await import('./package-root.js');
      io.stdout.write(`${packageVersion()}\n`);
      return 0;
    }
    if (args.print || io.stdin.isTTY !== true || !('isTTY' in io.stdout && (io.stdout as { isTTY?: boolean }).isTTY)) {
      const { runHeadless } = await import('./headless.js');
      return await runHeadless(args, io);
    }
    // Refused before the terminal UI starts: nothing is created for a run that cannot be had.
    if (args.jsonSchema !== undefined) throw new UsageError(JSON_SCHEMA_NEEDS_PRINT);
    const { runInteractiveSession } = await import('./interactive.js');
    return await runInteractiveSession(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`toolplane: ${error.message}\nRun toolplane --help for usage.\n`);
      return 2;
    }
    const name = error instanceof Error && 'code' in error ? ` (${String((error as { code: unknown }).code)})` : '';
    io.stderr.write(`toolplane: ${error instanceof Error ? error.message : String(error)}${name}\n`);
    return 1;
  }
}

async function runSubcommand(name: string, argv: readonly string[], io: CommandIo): Promise<number> {
  switch (name) {
    case 'permissions': {
      if (argv[0] === 'list' || argv[0] === 'revoke') {
        const { runPermissionsList, runPermissionsRevoke } = await import('./commands/permissions-rules.js');
        return (argv[0] === 'list' ? runPermissionsList : runPermissionsRevoke)(argv.slice(1), io);
      }
      if (argv[0] === 'replay') {
        const { runPermissionsReplay } = await import('./commands/permissions-replay.js');
        return runPermissionsReplay(argv.slice(1), io);
      }
      if (argv[0] === 'test') {
        const { runPermissionsTest } = await import('./commands/permissions-test.js');
        return runPermissionsTest(argv.slice(1), io);
      }
      if (argv[0] !== 'explain')
        throw new UsageError(
          'Usage: toolplane permissions explain --tool NAME --input JSON [...] | test FILE | list | revoke RULE | replay --settings NEW',
        );
      const { runPermissionsExplain } = await import('./commands/permissions-explain.js');
      return runPermissionsExplain(argv.slice(1), io);
    }
    case 'tool-search': {
      const { runToolSearchCommand } = await import('./commands/tool-search.js');
      const { readFile } = await import('node:fs/promises');
      return runToolSearchCommand(argv, {
        stdout: (text) => io.stdout.write(text),
        stderr: (text) => io.stderr.write(text),
        readFile: (path, options) => readFile(path, { encoding: 'utf8', signal: options.signal }),
      });
    }
    case 'mcp': {
      if (argv[0] !== 'list') throw new UsageError('Usage: toolplane mcp list [--mcp-config FILE] [--json]');
      const { runMcpList } = await import('./commands/mcp-list.js');
      return runMcpList(argv.slice(1), io);
    }
    case 'hooks': {
      if (argv[0] !== 'list')
        throw new UsageError('Usage: toolplane hooks list [--json] [--settings FILE|JSON] [--trust-project]');
      const { runHooksList } = await import('./commands/hooks-list.js');
      return runHooksList(argv.slice(1), io);
    }
    case 'sessions': {
      if (argv[0] === 'trace') {
        const { runSessionsTrace } = await import('./commands/sessions-trace.js');
        return runSessionsTrace(argv.slice(1), io);
      }
      if (argv[0] !== 'list')
        throw new UsageError(
          'Usage: toolplane sessions list [--json] | toolplane sessions trace <SESSION_ID> [--out FILE]',
        );
      const { runSessionsList } = await import('./commands/sessions-list.js');
      return runSessionsList(argv.slice(1), io);
    }
    case 'doctor': {
      const { runDoctor } = await import('./commands/doctor.js');
      return runDoctor(argv, io);
    }
    case 'trust': {
      const { runTrust } = await import('./commands/trust.js');
      return runTrust(argv, io);
    }
    case 'demo': {
      const { runDemo } = await import('./commands/demo.js');
      return runDemo(argv, io);
    }
    default:
      throw new UsageError(`Unknown command ${name}.`);
  }
}
