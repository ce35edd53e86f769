import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { HookSettings } from '../../contract/hook-config.js';
import type { PermissionRuleEntry } from '../../contract/permission.js';
import type { Sandbox, SandboxSettings } from '../../contract/sandbox.js';
import { buildSandboxPolicy } from '../../permissions/sandbox-policy.js';
import { createBubblewrapSandbox } from '../../sandbox/bubblewrap-sandbox.js';
import type { McpServersFromSource } from '../../settings/load-settings.js';

/** What the session's sandbox is made from. */
export type SandboxSetupOptions = {
  readonly settings: SandboxSettings;
  readonly rules: readonly PermissionRuleEntry[];
  readonly cwd: string;
  readonly additionalDirectories: readonly string[];
  readonly homeDir: string;
  readonly configDir: string;
  /** This session's folder beside its transcript (`…/<session-id>`); its `tmp/` is the private /tmp. */
  readonly sessionFolder: string;
  readonly hooks: HookSettings;
  readonly mcpServers: readonly McpServersFromSource[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly warn: (line: string) => void;
};

/** The session's sandbox and its private temporary folder; no sandbox when the settings turn it off. */
export type SandboxSetup = { readonly sandbox: Sandbox | undefined; readonly tmpDir: string };

/**
 * Sets up the Bash sandbox of a session: the policy is computed on first use (it may walk folders
 * to expand Read deny globs), the probe runs in the background (cached between runs), and a
 * notice says so at start when no sandbox can run here.
 */
export function setUpSandbox(options: SandboxSetupOptions): SandboxSetup {
  const tmpDir = path.join(options.sessionFolder, 'tmp');
  if (!options.settings.enabled) {
    options.warn('sandbox: disabled by sandbox.enabled = false; Bash commands run with your full access.');
    return { sandbox: undefined, tmpDir };
  }
  for (const notice of options.settings.notices) options.warn(`sandbox: ${notice}`);
  const bwrap = options.env.TOOLPLANE_BWRAP;
  const sandbox = createBubblewrapSandbox({
    ...(bwrap ? { bwrap } : {}),
    probeCacheFile: path.join(options.configDir, 'sandbox-probe.json'),
    stubJournalFile: path.join(options.configDir, 'sandbox-stubs.json'),
    env: options.env,
    policy: () => {
      mkdirSync(tmpDir, { recursive: true, mode: 0o700 });
      return buildSandboxPolicy({
        rules: options.rules,
        cwd: options.cwd,
        additionalDirectories: options.additionalDirectories,
        homeDir: options.homeDir,
        tmpDir,
        settings: options.settings,
        protectedFiles: filesRunOutside(options),
        configDir: options.configDir,
        sessionDir: options.sessionFolder,
      });
    },
  });
  void sandbox.status().then(
    (status) => {
      if (status.available) return;
      const consequence = options.settings.failIfUnavailable
        ? 'every Bash command will ask before it runs unsandboxed (sandbox.failIfUnavailable)'
        : 'Bash commands run with your full access';
      options.warn(`sandbox: not available: ${status.reason}; ${consequence}. ${status.fix}`);
    },
    () => undefined,
  );
  return { sandbox, tmpDir };
}

/**
 * Files that hook commands and stdio MCP servers run, which run outside the sandbox: every word of
 * their command lines that names an existing file (relative ones from the project folder).
 */
function filesRunOutside(options: SandboxSetupOptions): string[] {
  const words: string[] = [];
  for (const matchers of options.hooks.values()) {
    for (const matcher of matchers) {
      for (const hook of matcher.hooks) if (hook.type === 'command') words.push(...hook.command.split(/\s+/));
    }
  }
  for (const { servers } of options.mcpServers) {
    for (const config of servers.values()) {
      if (typeof config !== 'object' || config === null) continue;
      const { command, args } = config as { command?: unknown; args?: unknown };
      if (typeof command === 'string') words.push(command);
      if (Array.isArray(args)) words.push(...args.filter((arg): arg is string => typeof arg === 'string'));
    }
  }
  const files = new Set<string>();
  for (const word of words) {
    const cleaned = word.replace(/["']/g, '').replace(/^\$(?:TOOLPLANE|CLAUDE)_PROJECT_DIR\/?/, './');
    if (cleaned === '' || cleaned.startsWith('-')) continue;
    const absolute = path.resolve(options.cwd, cleaned);
    if (existsSync(absolute)) files.add(absolute);
  }
  return [...files];
}
