import path from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  PROTECTED_PATH_EXCEPTIONS,
  PROTECTED_PATHS,
  protectedPathReason,
  protectedPathsIn,
} from './protected-paths.js';

describe('protectedPathReason: what other programs run or load on their own', () => {
  // Each protected path beside a harmless look-alike that must stay writable.
  test.each([
    ['/p/.git/hooks/pre-commit', true],
    ['/p/githooks/pre-commit', false],
    ['/p/.git/config', true],
    ['/p/src/git-config.ts', false],
    ['/p/vendor/lib/.git/hooks/post-checkout', true],
    ['/p/.githooks/pre-push', true],
    ['/p/.gitattributes', true],
    ['/p/docs/gitattributes.md', false],
    ['/h/.bashrc', true],
    ['/h/bashrc.bak/notes', false],
    ['/h/.kshrc', true],
    ['/h/.config/fish/config.fish', true],
    ['/h/.config/fishing/log', false],
    ['/h/.config/systemd/user/agent.service', true],
    ['/h/.config/autostart/x.desktop', true],
    ['/h/.config/nvim/init.lua', true],
    ['/h/.vimrc', true],
    ['/h/.ssh/authorized_keys', true],
    ['/h/.ssh/rc', true],
    ['/h/.ssh/config', true],
    ['/h/ssh/config', false],
    ['/p/docs/ssh-config.md', false],
    ['/p/.toolplane/settings.json', true],
    ['/p/toolplane/settings.json', false],
    ['/p/.claude/settings.local.json', true],
    ['/p/.claude/worktrees/a/src/x.ts', false],
    ['/p/.claude/worktrees/a/.git/config', true],
    ['/p/.mcp.json', true],
    ['/p/mcp.json', false],
    ['/p/.cursor/mcp.json', true],
    ['/p/.codex/config.toml', true],
    ['/p/.gemini/settings.json', true],
    ['/p/src/gemini/client.ts', false],
    ['/p/.github/workflows/ci.yml', true],
    ['/p/.github/actions/setup/action.yml', true],
    ['/p/.github/CODEOWNERS', false],
    ['/p/.github', true],
    ['/p/docs/workflows/ci.yml', false],
    ['/p/.gitlab-ci.yml', true],
    ['/p/gitlab-ci.md', false],
    ['/p/.circleci/config.yml', true],
    ['/p/Jenkinsfile', true],
    ['/p/.envrc', true],
    ['/p/.env', false],
    ['/p/envrc.example', false],
    ['/P/.GitHub/Workflows/CI.yml', true],
    ['/p/.github./workflows/ci.yml', true],
  ])('%s → %s', (file, expected) => {
    expect(protectedPathReason(file) !== undefined).toBe(expected);
  });

  test('the reason names the entry and who runs it', () => {
    expect(protectedPathReason('/p/.github/workflows/ci.yml')).toBe(
      '/p/.github/workflows/ci.yml is inside .github/workflows/, a protected folder (CI runs it with the repository secrets)',
    );
    expect(protectedPathReason('/h/.envrc')).toMatch(/is \.envrc, a protected file/);
  });
});

describe('protectedPathsIn: the table as paths for the sandbox', () => {
  test('lists every entry under the folder, absolute, with its kind and the writable exceptions', () => {
    const listed = protectedPathsIn('/work/p/');
    expect(listed.protected).toHaveLength(PROTECTED_PATHS.length);
    expect(listed.protected).toContainEqual({ path: '/work/p/.git', kind: 'folder' });
    expect(listed.protected).toContainEqual({ path: '/work/p/.github/workflows', kind: 'folder' });
    expect(listed.protected).toContainEqual({ path: '/work/p/.mcp.json', kind: 'file' });
    expect(listed.protected).toContainEqual({ path: '/work/p/Jenkinsfile', kind: 'file' });
    expect(listed.exceptions).toEqual(PROTECTED_PATH_EXCEPTIONS.map((entry) => path.join('/work/p', entry)));
  });

  test('every listed path is itself protected, and every exception is not', () => {
    const listed = protectedPathsIn('/work/p');
    for (const entry of listed.protected) expect(protectedPathReason(entry.path), entry.path).toBeDefined();
    for (const entry of listed.exceptions) expect(protectedPathReason(path.join(entry, 'x')), entry).toBeUndefined();
  });
});
