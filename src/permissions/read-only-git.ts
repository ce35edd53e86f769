import type { ShellWord } from './shell-words.js';

const GIT_READ_ONLY: ReadonlySet<string> = new Set([
  'status',
  'log',
  'diff',
  'show',
  'rev-parse',
  'ls-files',
  'ls-tree',
  'cat-file',
  'blame',
  'describe',
  'shortlog',
  'merge-base',
  'rev-list',
  'name-rev',
  'count-objects',
  'check-ignore',
  'grep',
  'branch',
  'tag',
  'remote',
  'config',
  'stash',
  'worktree',
  'reflog',
  'show-ref',
  'help',
  'version',
]);

const GIT_UNSAFE_ANYWHERE =
  /^(--contents|--output|--ext-diff|--textconv|--exec|--upload-pack|--receive-pack|--open-files-in-pager|-O|--no-index|--paginate)/;

const GIT_UNSAFE_LONG = [
  '--contents',
  '--output',
  '--ext-diff',
  '--textconv',
  '--exec',
  '--upload-pack',
  '--receive-pack',
  '--open-files-in-pager',
  '--no-index',
  '--paginate',
];

/** git's option parser accepts unambiguous prefixes: `--out=x` is `--output=x`. */
function abbreviatesGitUnsafe(value: string): boolean {
  const eq = value.indexOf('=');
  const flag = eq < 0 ? value : value.slice(0, eq);
  return flag.length > 2 && flag.startsWith('--') && GIT_UNSAFE_LONG.some((bad) => bad.startsWith(flag));
}

/** Checks `git …`: global options, the subcommand and its flags. */
export function checkGit(argv: readonly ShellWord[]): string | undefined {
  let index = 1;
  for (; index < argv.length; index += 1) {
    const word = argv[index] as ShellWord;
    if (!word.static || word.glob) return `${word.source} could expand to a git option that runs commands`;
    const value = word.value;
    if (!value.startsWith('-')) break;
    if (
      value === '--no-pager' ||
      value === '--no-optional-locks' ||
      value === '--literal-pathspecs' ||
      value === '--bare'
    )
      continue;
    return `git ${value} can change what git runs or where it writes`;
  }
  const sub = argv[index]?.value;
  if (sub === undefined || !GIT_READ_ONLY.has(sub)) return `git ${sub ?? ''} is not a read-only git command`.trim();
  const rest = argv.slice(index + 1);
  for (const word of rest) {
    if (!word.static || word.glob) return `${word.source} could expand to a git option that runs commands`;
    if (GIT_UNSAFE_ANYWHERE.test(word.value) || abbreviatesGitUnsafe(word.value))
      return `git ${sub} ${word.value} can write files or run commands`;
  }
  const positionals = rest.filter((word) => !word.value.startsWith('-'));
  const flags = rest.filter((word) => word.value.startsWith('-')).map((word) => word.value);
  switch (sub) {
    case 'branch':
    case 'tag':
      if (
        positionals.length > 0 ||
        flags.some(
          (flag) =>
            !/^(-a|-r|-l|--list|-v|-vv|--all|--remotes|--show-current|--contains|--merged|--no-merged|--sort=.*|--format=.*|-n\d*)$/.test(
              flag,
            ),
        )
      ) {
        return `git ${sub} with these arguments can create, rename or delete`;
      }
      return undefined;
    case 'remote':
      if (positionals.length === 0)
        return flags.every((flag) => flag === '-v' || flag === '--verbose')
          ? undefined
          : 'git remote with these flags changes remotes';
      return positionals[0]?.value === 'show' || positionals[0]?.value === 'get-url'
        ? undefined
        : `git remote ${positionals[0]?.value ?? ''} changes remotes`;
    case 'config':
      return flags.some((flag) => /^(--get|--get-all|--get-regexp|--list|-l)$/.test(flag)) &&
        !flags.some((flag) => /^(--add|--unset|--replace-all|--edit|-e|--file|-f)/.test(flag))
        ? undefined
        : 'git config without --get or --list can change configuration';
    case 'stash':
    case 'worktree':
      return positionals[0]?.value === 'list'
        ? undefined
        : `git ${sub} ${positionals[0]?.value ?? ''} changes the repository`.trim();
    case 'help':
      // -w/--web, -i/--info and -m/--man start a browser or viewer that git.config can name.
      return flags.every((flag) => /^(-a|-g|--all|--guides)$/.test(flag))
        ? undefined
        : `git help ${flags.join(' ')} starts an external viewer`;
    case 'reflog':
      return positionals.length === 0 || positionals[0]?.value === 'show'
        ? undefined
        : 'git reflog with a subcommand can expire entries';
    default:
      return undefined;
  }
}
