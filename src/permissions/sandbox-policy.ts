import { readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import type { PermissionRuleEntry } from '../contract/permission.js';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxPolicy, type SandboxSettings } from '../contract/sandbox.js';
import { isWithin, resolveRealPath } from './path-resolution.js';
import type { PathMatcher } from './path-rule.js';
import { PROTECTED_PATHS } from './protected-paths.js';
import { createRuleSet, type CompiledRule } from './rule-set.js';

/** What {@link buildSandboxPolicy} derives a session's sandbox from. */
export type SandboxPolicyOptions = {
  /** Every permission rule of the session (the same entries the permission engine gets). */
  readonly rules: readonly PermissionRuleEntry[];
  readonly cwd: string;
  readonly additionalDirectories?: readonly string[];
  readonly homeDir: string;
  /** The session's private temporary folder (created by the host). */
  readonly tmpDir: string;
  readonly settings?: SandboxSettings;
  /**
   * Files that run outside the sandbox (hook commands, stdio MCP servers): write-protected when
   * they lie in a working folder, so a sandboxed command cannot rewrite them.
   */
  readonly protectedFiles?: readonly string[];
  /** toolplane's folder (`~/.toolplane`): other sessions' transcripts there are masked. */
  readonly configDir?: string;
  /** This session's transcript folder, left readable. */
  readonly sessionDir?: string;
  readonly caseInsensitive?: boolean;
  /** Most entries one rule's glob may visit before it is reported as not fully expanded. Default 20,000. */
  readonly maxGlobEntries?: number;
};

/** Credential stores under the home folder, masked in every profile unless `allowRead` names one. */
export const CREDENTIAL_STORES: readonly string[] = [
  '.ssh',
  '.aws',
  '.azure',
  '.gnupg',
  '.config/gcloud',
  '.config/gh',
  '.config/hub',
  '.config/op',
  '.config/github-copilot',
  '.git-credentials',
  '.netrc',
  '.docker/config.json',
  '.docker/run',
  '.pypirc',
  '.gem/credentials',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.kube',
  '.pgpass',
  '.my.cnf',
  '.vault-token',
  '.password-store',
  '.terraform.d/credentials.tfrc.json',
  '.local/share/keyrings',
  '.bash_history',
  '.zsh_history',
  '.python_history',
  '.node_repl_history',
  '.claude/.credentials.json',
  '.claude/projects',
  '.codex/auth.json',
  '.codex/sessions',
  '.gemini/oauth_creds.json',
];

/** Configuration files under home that hold tokens among settings: shown with the tokens removed. */
export const REDACTED_CONFIG_FILES: readonly string[] = [
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.config/pip/pip.conf',
  '.pip/pip.conf',
];

/** Tool caches under home that workspace-profile commands may write (`npm ci`, builds). */
export const WRITABLE_CACHES: readonly string[] = [
  '.npm',
  '.cache',
  '.pnpm-store',
  '.bun/install/cache',
  'go/pkg/mod',
  '.cargo/registry',
  '.cargo/git',
  '.gradle/caches',
  '.m2/repository',
];

/**
 * Paths inside each working folder that programs outside the sandbox run or load by themselves:
 * git's hooks and config, agents' settings and MCP configuration, editor tasks, dev containers,
 * CI workflows, direnv. Read-only to workspace-profile commands, and a missing one cannot be
 * created (each costs a mount point per command, so this list is kept to what runs unasked).
 */
export const SANDBOX_WRITE_PROTECTED: readonly string[] = [
  '.git/hooks',
  '.git/config',
  '.toolplane',
  '.claude',
  '.mcp.json',
  '.cursor',
  '.codex',
  '.gemini',
  '.vscode',
  '.devcontainer',
  '.envrc',
  '.github/workflows',
  // pre-commit's installed hook runs whatever a new config lists at the user's next commit.
  '.pre-commit-config.yaml',
];

/**
 * Everything else the permission engine protects (its one list, `PROTECTED_PATHS`): read-only
 * when it exists, creatable when it does not. `.git` as a whole is not (commits write it); its
 * hooks and config are in the list above.
 */
export const SANDBOX_WRITE_PROTECTED_WHEN_PRESENT: readonly string[] = PROTECTED_PATHS.map(
  (entry) => entry.path,
).filter((entry) => entry !== '.git' && !SANDBOX_WRITE_PROTECTED.includes(entry));

/** Files a shell or the desktop runs from a home folder; protected when a working folder holds home. */
export const HOME_STARTUP_FILES: readonly string[] = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.bash_aliases',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  '.gitconfig',
  '.config',
  '.local/bin',
  '.ssh',
];

const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['node_modules', '.git']);

/**
 * Derives a session's sandbox from its permission rules and `sandbox` settings — one source of
 * truth for both layers. Read deny rules become masks (globs expanded to the paths that exist now
 * under the working folders and home; what cannot be expanded is listed in `unenforced`), Edit deny
 * rules write protection; credential stores are masked unless `allowRead` names them.
 */
export function buildSandboxPolicy(options: SandboxPolicyOptions): SandboxPolicy {
  const settings = options.settings ?? DEFAULT_SANDBOX_SETTINGS;
  const homeDir = path.resolve(options.homeDir);
  const workingFolders = [options.cwd, ...(options.additionalDirectories ?? [])].map((folder) => path.resolve(folder));
  const rules = createRuleSet(options.rules, {
    cwd: options.cwd,
    homeDir,
    caseInsensitive: options.caseInsensitive ?? false,
  });
  const unenforced: string[] = [...settings.notices];
  const limit = options.maxGlobEntries ?? 20_000;

  const masked = new Set<string>();
  const allowRead = settings.allowRead.map((entry) => path.resolve(entry));
  const unmasked = (candidate: string): boolean =>
    allowRead.some((allowed) => isWithin(candidate, allowed) || isWithin(allowed, candidate));
  for (const store of CREDENTIAL_STORES) {
    const candidate = path.join(homeDir, store);
    if (!unmasked(candidate)) masked.add(candidate);
  }
  for (const denied of settings.denyRead) masked.add(path.resolve(denied));
  for (const rule of pathRules(rules.all('deny'), 'Read')) {
    for (const found of expandRule(rule, { workingFolders, homeDir, limit, unenforced })) masked.add(found);
  }
  if (options.configDir !== undefined) {
    for (const other of otherSessions(options.configDir, options.sessionDir)) masked.add(other);
  }

  const writable = [
    ...WRITABLE_CACHES.map((cache) => path.join(homeDir, cache)),
    ...settings.allowWrite.map((entry) => path.resolve(entry)),
  ];
  const writeProtected = new Set<string>();
  const whenPresent: string[] = [];
  for (const folder of workingFolders) {
    for (const name of SANDBOX_WRITE_PROTECTED) writeProtected.add(path.join(folder, name));
    for (const name of SANDBOX_WRITE_PROTECTED_WHEN_PRESENT) whenPresent.push(path.join(folder, name));
    if (isWithin(homeDir, folder)) for (const name of HOME_STARTUP_FILES) writeProtected.add(path.join(homeDir, name));
    for (const found of gitPathsRunOutside(folder, { limit, unenforced })) writeProtected.add(found);
  }
  for (const file of options.protectedFiles ?? []) {
    const absolute = path.resolve(options.cwd, file);
    // A hook script in a tool cache (~/.cache/…) is as writable to a command as one in the project.
    if ([...workingFolders, ...writable].some((folder) => isWithin(absolute, folder))) writeProtected.add(absolute);
  }
  for (const denied of settings.denyWrite) writeProtected.add(path.resolve(denied));
  for (const rule of pathRules(rules.all('deny'), 'Edit')) {
    for (const found of expandRule(rule, { workingFolders, homeDir, limit, unenforced })) writeProtected.add(found);
  }

  const redacted = REDACTED_CONFIG_FILES.map((name) => path.join(homeDir, name)).filter(
    (file) => !unmasked(file) && !masked.has(file),
  );
  return {
    workingFolders,
    tmpDir: path.resolve(options.tmpDir),
    writable,
    masked: [...masked],
    redacted,
    writeProtected: [...writeProtected],
    writeProtectedWhenPresent: whenPresent,
    network: settings.network,
    allowUnixSockets: settings.allowAllUnixSockets,
    excludedCommands: settings.excludedCommands,
    failIfUnavailable: settings.failIfUnavailable,
    allowUnsandboxedCommands: settings.allowUnsandboxedCommands,
    unenforced,
  };
}

/** How deep below a working folder nested repositories and submodules are looked for. */
const GIT_SEARCH_DEPTH = 4;

/**
 * The git files below a working folder that the host's git runs or follows, beyond the root's own
 * `.git/hooks` and `.git/config`: those of nested repositories (a working folder holding several
 * checkouts) and of submodules (`.git/modules/<name>/{config,hooks}`), and every `.git` file (a
 * submodule's or a worktree's pointer to its git folder). A command that rewrote one would have the
 * user's next `git status` there run its code (`core.fsmonitor`, hooks). Found by a bounded walk.
 */
function gitPathsRunOutside(
  folder: string,
  options: { readonly limit: number; readonly unenforced: string[] },
): string[] {
  const found: string[] = [];
  let visited = 0;
  const addGitFolder = (gitFolder: string, depth: number): void => {
    found.push(path.join(gitFolder, 'hooks'), path.join(gitFolder, 'config'));
    if (depth > GIT_SEARCH_DEPTH) return;
    const modules = path.join(gitFolder, 'modules');
    for (const entry of listEntries(modules))
      if (entry.isDirectory()) addModule(path.join(modules, entry.name), depth + 1);
  };
  // Submodule names may hold slashes, so a module's git folder is found by its HEAD.
  const addModule = (candidate: string, depth: number): void => {
    if (depth > GIT_SEARCH_DEPTH * 2) return;
    if (listEntries(candidate).some((entry) => entry.name === 'HEAD' && entry.isFile()))
      return addGitFolder(candidate, depth);
    for (const entry of listEntries(candidate))
      if (entry.isDirectory()) addModule(path.join(candidate, entry.name), depth + 1);
  };
  const walk = (current: string, depth: number): void => {
    for (const entry of listEntries(current)) {
      if (visited >= options.limit) return;
      visited += 1;
      const child = path.join(current, entry.name);
      if (entry.name === '.git') {
        if (entry.isDirectory()) addGitFolder(child, 0);
        else if (entry.isFile()) found.push(child);
        continue;
      }
      if (entry.isDirectory() && depth < GIT_SEARCH_DEPTH && !SKIPPED_FOLDERS.has(entry.name)) walk(child, depth + 1);
    }
  };
  walk(folder, 0);
  if (visited >= options.limit) {
    options.unenforced.push(
      `nested git repositories under ${folder}: more than ${options.limit} entries to search, so only the first ones are write-protected`,
    );
  }
  return found;
}

function listEntries(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
}

function pathRules(
  rules: readonly CompiledRule[],
  toolName: string,
): (CompiledRule & { readonly path: PathMatcher })[] {
  return rules.filter(
    (rule): rule is CompiledRule & { readonly path: PathMatcher } =>
      rule.path !== undefined && rule.parsed.kind === 'path' && rule.parsed.toolName === toolName,
  );
}

type ExpandOptions = {
  readonly workingFolders: readonly string[];
  readonly homeDir: string;
  readonly limit: number;
  readonly unenforced: string[];
};

/**
 * The paths a path rule covers that exist now: its one path when it names one, else a bounded walk
 * of the folder it reaches (only where that lies under a working folder or home), keeping each
 * match and not descending below it. Links are not followed.
 */
function expandRule(rule: CompiledRule & { readonly path: PathMatcher }, options: ExpandOptions): string[] {
  const { reach } = rule.path;
  if ('exact' in reach) {
    const real = resolveRealPath(reach.exact);
    return real !== undefined && real !== reach.exact ? [reach.exact, real] : [reach.exact];
  }
  const roots = [...options.workingFolders, options.homeDir];
  const start = reach.under;
  const walkRoots = roots.some((root) => isWithin(start, root))
    ? [start]
    : roots.filter((root) => isWithin(root, start) && rule.path.mayMatchUnder(root));
  if (walkRoots.length === 0) {
    options.unenforced.push(
      `${rule.entry.rule}: its paths under ${start} are outside the working folders and home, so they are not masked`,
    );
    return [];
  }
  const found: string[] = [];
  let visited = 0;
  let truncated = false;
  const walk = (folder: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (visited >= options.limit) {
        truncated = true;
        return;
      }
      visited += 1;
      const child = path.join(folder, entry.name);
      if (rule.path.matches(child)) {
        found.push(child);
        continue;
      }
      if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name) && rule.path.mayMatchUnder(child)) walk(child);
    }
  };
  for (const root of walkRoots) walk(root);
  if (truncated) {
    options.unenforced.push(
      `${rule.entry.rule}: more than ${options.limit} entries to search, so only the first matches are masked`,
    );
  }
  if (walkRoots.length > 0) {
    options.unenforced.push(
      `${rule.entry.rule}: a glob, masked for the ${found.length} path(s) that existed at the start (node_modules and .git not searched); files created later are not masked`,
    );
  }
  return found;
}

/** Transcript folders of other projects, and other sessions' files in this one. */
function otherSessions(configDir: string, sessionDir: string | undefined): string[] {
  const projects = path.join(path.resolve(configDir), 'projects');
  const own = sessionDir === undefined ? undefined : path.resolve(sessionDir);
  const ownProject = own === undefined ? undefined : path.dirname(own);
  const result: string[] = [];
  for (const project of listNames(projects)) {
    const folder = path.join(projects, project);
    if (folder !== ownProject) {
      result.push(folder);
      continue;
    }
    const ownName = path.basename(own as string);
    for (const name of listNames(folder)) {
      if (name !== ownName && name !== `${ownName}.jsonl`) result.push(path.join(folder, name));
    }
  }
  return result;
}

function listNames(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
