import { readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { describeError } from '../../errors/index.js';
import { readSmallFile } from '../read-small-file.js';
import { realFolder } from '../real-folder.js';
import { parseCommandFile, type CommandFile } from './parse-command-file.js';

/** Where a custom command came from: the project's folders or the person's own. */
export type CommandScope = 'project' | 'user';

/** A custom slash command read from a Markdown file. */
export type CustomCommand = {
  /** What follows the `/`: the file's name without `.md`, subfolders joined by `:` (`frontend:component`). Lower case. */
  readonly name: string;
  readonly scope: CommandScope;
  readonly path: string;
  readonly file: CommandFile;
};

/** The custom commands found, by name, and what was wrong (each naming its file). */
export type CustomCommandList = {
  readonly commands: ReadonlyMap<string, CustomCommand>;
  readonly problems: readonly string[];
};

/** A command file larger than this is reported, not read (bytes). */
const MAX_FILE_BYTES = 256 * 1024;
/** Subfolders deeper than this are not searched. */
const MAX_DEPTH = 4;
/** Files read at most per folder tree. */
const MAX_FILES = 500;
const SEGMENT = /^[A-Za-z0-9_][\w.-]*$/;

/**
 * Reads the custom slash commands: the project's `.toolplane/commands/` and `.claude/commands/`,
 * then the person's `~/.toolplane/commands/` and `~/.claude/commands/`, each a tree of `.md` files.
 * The first folder that defines a name wins (the project's over the person's, the other way round
 * in an untrusted folder) and every later
 * file of that name is reported; a name that a built-in command has is never used (the built-in
 * stays) and is reported. A file that cannot be read or parsed is reported with its path and line
 * and skipped. Synchronous and cheap (a few small files): it runs when a line is submitted, so a
 * command added while toolplane runs works at once.
 */
export function loadCustomCommands(options: {
  readonly cwd: string;
  readonly homeDir: string;
  /** The built-in commands' names (and aliases), which custom commands may not take. */
  readonly builtinNames: ReadonlySet<string>;
  /** False in a folder nobody trusted: the person's commands then win over the project's. Default true. */
  readonly projectTrusted?: boolean;
}): CustomCommandList {
  const commands = new Map<string, CustomCommand>();
  const problems: string[] = [];
  const project: readonly { readonly folder: string; readonly scope: CommandScope }[] = [
    { folder: path.join(options.cwd, '.toolplane', 'commands'), scope: 'project' },
    { folder: path.join(options.cwd, '.claude', 'commands'), scope: 'project' },
  ];
  const user: readonly { readonly folder: string; readonly scope: CommandScope }[] = [
    { folder: path.join(options.homeDir, '.toolplane', 'commands'), scope: 'user' },
    { folder: path.join(options.homeDir, '.claude', 'commands'), scope: 'user' },
  ];
  // An untrusted repository must not put its own /review in place of the person's.
  const roots = options.projectTrusted === false ? [...user, ...project] : [...project, ...user];
  const seen = new Set<string>();
  for (const root of roots) {
    // Run in the home folder, the project's folders are the person's: read once, as the project's.
    const real = realFolder(root.folder);
    if (real === undefined || seen.has(real)) continue;
    seen.add(real);
    for (const found of commandFiles(root.folder, problems)) {
      const command = readCommand({ ...found, scope: root.scope }, problems);
      if (command === undefined) continue;
      const earlier = commands.get(command.name);
      if (options.builtinNames.has(command.name))
        problems.push(
          `${command.path}: /${command.name} is a built-in command, which stays; rename the file to use it`,
        );
      else if (earlier)
        problems.push(`${command.path}: not used, /${command.name} is defined already by ${earlier.path}`);
      else commands.set(command.name, command);
    }
  }
  return { commands, problems };
}

/** The `.md` files under `root`, with their command names. */
function commandFiles(root: string, problems: string[]): { readonly path: string; readonly name: string }[] {
  const found: { path: string; name: string }[] = [];
  const walk = (folder: string, prefix: readonly string[]): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      problems.push(`${folder}: cannot be listed (${describeError(error)})`);
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(folder, entry.name);
      const isFolder = entry.isDirectory() || (entry.isSymbolicLink() && realFolder(full) !== undefined);
      if (isFolder && prefix.length + 1 < MAX_DEPTH && SEGMENT.test(entry.name)) walk(full, [...prefix, entry.name]);
      if (isFolder || !entry.name.toLowerCase().endsWith('.md')) continue;
      if (found.length >= MAX_FILES) {
        problems.push(`${root}: more than ${MAX_FILES} command files; the rest are not read`);
        return;
      }
      const base = entry.name.slice(0, -'.md'.length);
      if (!SEGMENT.test(base)) {
        problems.push(`${full}: the name ${JSON.stringify(base)} cannot be a command (letters, digits, _ . - only)`);
        continue;
      }
      found.push({ path: full, name: [...prefix, base].join(':').toLowerCase() });
    }
  };
  walk(root, []);
  return found;
}

function readCommand(
  found: { readonly path: string; readonly name: string; readonly scope: CommandScope },
  problems: string[],
): CustomCommand | undefined {
  const read = readSmallFile(found.path, MAX_FILE_BYTES);
  if (!read.ok) {
    problems.push(`${found.path}: ${read.reason}; the command is not available`);
    return undefined;
  }
  const parsed = parseCommandFile(read.text);
  if (!parsed.ok) {
    problems.push(`${found.path}:${parsed.line}: ${parsed.message}; the command is not available`);
    return undefined;
  }
  return { ...found, file: parsed.file };
}
