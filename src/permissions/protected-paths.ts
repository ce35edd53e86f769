import path from 'node:path';

/**
 * The protected paths: files and folders that other programs run or load on their own (git hooks
 * and config, shell startup files, SSH's authorized keys, every agent's settings and MCP
 * configuration, CI workflows, direnv, package-manager and build config). Writing one is never
 * auto-approved, in any mode, bypassPermissions included: a person is asked, and where no one can
 * be asked the write is denied. Reads are not affected.
 *
 * This table is the one source for both layers: the permission engine checks paths against it,
 * and the sandbox derives its write-protected set from it (`protectedPathsIn`).
 */

/** One protected entry, relative to whatever folder it appears in. */
export type ProtectedPath = {
  /** `/`-separated segments as usually spelled: `.git`, `.github/workflows`, `Jenkinsfile`. */
  readonly path: string;
  /** `folder`: the folder and everything below it; `file`: exactly that file. */
  readonly kind: 'folder' | 'file';
  /** Who runs or loads it, in words (shown in the reason of a decision). */
  readonly why: string;
};

const folder = (entry: string, why: string): ProtectedPath => ({ path: entry, kind: 'folder', why });
const file = (entry: string, why: string): ProtectedPath => ({ path: entry, kind: 'file', why });
const files = (entries: readonly string[], why: string): ProtectedPath[] => entries.map((entry) => file(entry, why));

/**
 * Every protected entry. An entry matches at any depth and in any folder (the project, the home
 * folder, a nested repository): `.git` protects `/p/.git/config` and `/p/vendor/x/.git/hooks/a`.
 * Names compare case-insensitively, with what Windows ignores at the end of a name (trailing dots
 * and spaces, `::$DATA`) removed, so `.GIT./config` is `.git/config`.
 */
export const PROTECTED_PATHS: readonly ProtectedPath[] = [
  // git runs hooks and reads config (core.pager, core.fsmonitor, aliases, filters) on its own.
  folder('.git', 'git runs its hooks and reads its config'),
  folder('.config/git', 'git reads its config'),
  folder('.githooks', 'git runs hooks from it when core.hooksPath points there'),
  folder('.husky', 'git hooks run from it'),
  ...files(['.gitconfig', '.gitmodules', '.gitattributes'], 'git reads it (programs it names run on their own)'),
  ...files(
    ['.pre-commit-config.yaml', 'lefthook.yml', 'lefthook.yaml', '.lefthook.yml', '.lefthook.yaml'],
    'git hook managers run what it lists',
  ),
  // Shell and session startup files: run by every new shell or login.
  ...files(
    [
      '.bashrc',
      '.bash_profile',
      '.bash_login',
      '.bash_aliases',
      '.bash_logout',
      '.zshrc',
      '.zprofile',
      '.zshenv',
      '.zlogin',
      '.zlogout',
      '.profile',
      '.kshrc',
      '.mkshrc',
      '.cshrc',
      '.tcshrc',
      '.login',
      '.logout',
      '.inputrc',
      '.xprofile',
      '.xinitrc',
      '.xsessionrc',
      '.pam_environment',
    ],
    'shells or the login session run it at start',
  ),
  folder('.config/fish', 'fish runs it at start'),
  folder('.config/environment.d', 'the login session loads it'),
  folder('.config/autostart', 'the desktop session runs it at login'),
  folder('.config/systemd', 'systemd runs the user services it defines'),
  ...files(['.vimrc', '.gvimrc', '.exrc', '.emacs'], 'the editor runs it when it starts'),
  folder('.config/nvim', 'Neovim runs it when it starts'),
  folder('.emacs.d', 'Emacs runs it when it starts'),
  // SSH: authorized_keys lets anyone with the key in; rc and config run commands on connect.
  folder('.ssh', 'SSH reads it (authorized_keys admits keys; rc and config run commands)'),
  // Agents' own settings and MCP configuration: they allow tools, run hooks and start servers.
  folder('.toolplane', "an agent's settings (rules, hooks, MCP servers)"),
  folder('.claude', "an agent's settings (rules, hooks, MCP servers)"),
  folder('.cursor', "an agent's settings and MCP servers"),
  folder('.codex', "an agent's settings and MCP servers"),
  folder('.gemini', "an agent's settings and MCP servers"),
  folder('.windsurf', "an agent's settings and MCP servers"),
  folder('.continue', "an agent's settings and MCP servers"),
  folder('.amazonq', "an agent's settings and MCP servers"),
  ...files(['.mcp.json', '.claude.json', '.aider.conf.yml'], "an agent's settings or MCP servers"),
  // Editors and dev containers run tasks, extensions and commands from these.
  folder('.vscode', 'the editor runs tasks and servers from it'),
  folder('.idea', 'the editor runs tools from it'),
  folder('.zed', 'the editor runs tasks and servers from it'),
  folder('.devcontainer', 'dev containers run commands from it'),
  file('.devcontainer.json', 'dev containers run commands from it'),
  // CI: pushed workflow files run with the repository's secrets.
  folder('.github/workflows', 'CI runs it with the repository secrets'),
  folder('.github/actions', 'CI workflows run the actions in it'),
  folder('.circleci', 'CI runs it'),
  folder('.buildkite', 'CI runs it'),
  folder('.woodpecker', 'CI runs it'),
  ...files(
    [
      '.gitlab-ci.yml',
      '.travis.yml',
      'azure-pipelines.yml',
      'bitbucket-pipelines.yml',
      '.drone.yml',
      '.woodpecker.yml',
      'Jenkinsfile',
    ],
    'CI runs it',
  ),
  // Environment loaders: run when a shell enters the folder.
  ...files(['.envrc', '.mise.toml', 'mise.toml'], 'the shell runs it when it enters the folder'),
  // Package managers and build tools run code or fetch programs from these.
  folder('.cargo', 'cargo runs what it configures'),
  folder('.yarn', 'yarn runs the code in it'),
  folder('.mvn', 'Maven runs what it configures'),
  ...files(
    [
      '.npmrc',
      '.yarnrc',
      '.yarnrc.yml',
      '.pnp.cjs',
      '.pnp.loader.mjs',
      '.pnpmfile.cjs',
      'bunfig.toml',
      '.bunfig.toml',
      '.bazelrc',
      '.bazelversion',
      '.bazeliskrc',
      'gradle-wrapper.properties',
      'maven-wrapper.properties',
      '.ripgreprc',
      'pyrightconfig.json',
    ],
    'a package manager or build tool runs what it configures',
  ),
];

/** Entries inside a protected folder that stay writable (an agent's own scratch worktrees). */
export const PROTECTED_PATH_EXCEPTIONS: readonly string[] = ['.claude/worktrees'];

type Compiled = { readonly entry: ProtectedPath; readonly segments: readonly string[] };

const COMPILED: readonly Compiled[] = PROTECTED_PATHS.map((entry) => ({
  entry,
  segments: entry.path.toLowerCase().split('/'),
}));
const EXCEPTIONS: readonly (readonly string[])[] = PROTECTED_PATH_EXCEPTIONS.map((entry) =>
  entry.toLowerCase().split('/'),
);
const BY_FIRST_SEGMENT = new Map<string, Compiled[]>();
for (const compiled of COMPILED) {
  const first = compiled.segments[0] as string;
  BY_FIRST_SEGMENT.set(first, [...(BY_FIRST_SEGMENT.get(first) ?? []), compiled]);
}

/** Strips what Windows ignores at the end of a segment (trailing dots and spaces, `::$DATA`). */
function canonicalSegment(segment: string): string {
  const lower = segment.toLowerCase().replace(/::\$data$/, '');
  const stripped = lower.replace(/[. ]+$/, '');
  return stripped === '' ? lower : stripped;
}

function startsAt(segments: readonly string[], index: number, wanted: readonly string[]): boolean {
  return wanted.every((segment, offset) => segments[index + offset] === segment);
}

/**
 * Why writing `absolute` is never auto-approved, or undefined. Every segment is compared, so the
 * entry may sit at any depth; see {@link PROTECTED_PATHS} for how names are compared.
 */
export function protectedPathReason(absolute: string): string | undefined {
  const segments = absolute
    .split(/[\\/]+/)
    .filter((segment) => segment !== '')
    .map(canonicalSegment);
  for (let index = 0; index < segments.length; index += 1) {
    const exception = EXCEPTIONS.find((wanted) => startsAt(segments, index, wanted));
    if (exception !== undefined) {
      // Skip the exception itself; a protected name deeper inside it still counts.
      index += exception.length - 1;
      continue;
    }
    const rest = segments.length - index;
    for (const { entry, segments: wanted } of BY_FIRST_SEGMENT.get(segments[index] as string) ?? []) {
      if (rest < wanted.length) {
        // `.github` itself, or `.config`: moving a folder there would replace `.github/workflows`.
        if (startsAt(wanted, 0, segments.slice(index)))
          return `${absolute} holds ${entry.path}, a protected ${entry.kind} (${entry.why})`;
        continue;
      }
      if (!startsAt(segments, index, wanted)) continue;
      if (entry.kind === 'folder') return `${absolute} is inside ${entry.path}/, a protected folder (${entry.why})`;
      if (rest === wanted.length) return `${absolute} is ${entry.path}, a protected file (${entry.why})`;
    }
  }
  return undefined;
}

/** One protected path under a folder, for a sandbox to keep read-only. */
export type ProtectedLocation = { readonly path: string; readonly kind: 'folder' | 'file' };

/**
 * The protected entries directly under `folder`, as absolute paths (whether or not they exist), in
 * table order: for `/p`, `/p/.git`, `/p/.github/workflows`, `/p/.bashrc`, … A sandbox mounts
 * these read-only in the working folders and the home folder; the same names deeper down (a
 * nested repository's `.git`) are protected by the permission engine but are not listed here.
 * `exceptions` are the paths under `folder` that must stay writable inside a protected folder.
 */
export function protectedPathsIn(folderPath: string): {
  readonly protected: readonly ProtectedLocation[];
  readonly exceptions: readonly string[];
} {
  const base = path.resolve(folderPath);
  return {
    protected: PROTECTED_PATHS.map((entry) => ({ path: path.join(base, ...entry.path.split('/')), kind: entry.kind })),
    exceptions: PROTECTED_PATH_EXCEPTIONS.map((entry) => path.join(base, ...entry.split('/'))),
  };
}
