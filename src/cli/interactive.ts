import { createInterface } from 'node:readline/promises';
import { INTERACTION_CHANNEL } from '../tools/ask-user-question/interaction-channel.js';
import type { RunArguments } from './args.js';
import { modelErrorContextOf } from './describe-model-error.js';
import { describePermissions } from './describe-permissions.js';
import type { CommandIo } from './headless.js';
import { describeListedHook, listHooks } from './hook-listing.js';
import { createCommandHost } from './interactive-commands.js';
import { createRuntime, type Runtime } from './runtime/create-runtime.js';
import { packageVersion } from './package-root.js';
import type { HeldConfigFile } from './runtime/held-config-files.js';
import { sessionSpending } from './session-spending.js';
import type { InteractiveHost } from './tui/interactive-host.js';
import { createWarningRelay } from './warning-relay.js';
import { visibleText } from './tui/visible-text.js';
import { askTrust } from './trust-question.js';
import { nextPermissionMode } from './tui/next-permission-mode.js';
import { trustFolder } from './trust-folder.js';

const CONTEXT_WINDOW = 200_000;

/** The question about a settings file a tool call wrote, as the person reads it. */
export function heldFileQuestion(held: HeldConfigFile): string {
  const when = held.record.at.slice(0, 16).replace('T', ' ');
  const by = held.record.session === undefined ? '' : ` in session ${held.record.session}`;
  const loosens = held.loosens.length === 0 ? ['(nothing beyond deny and ask rules)'] : held.loosens.slice(0, 20);
  return [
    `${held.file} was changed by a tool call${by} (${when} UTC).`,
    'Until you confirm it, only its deny and ask rules (and those it had before) apply, here and in headless runs.',
    'As it is now, it would also:',
    ...loosens.map((line) => `  ${visibleText(line, { newlines: 'escape' })}`),
    ...(held.loosens.length > 20 ? [`  … and ${held.loosens.length - 20} more`] : []),
    'Apply this file as it is now? [y/N] ',
  ].join('\n');
}

async function askYesNo(question: string, io: CommandIo): Promise<boolean> {
  const prompt = createInterface({ input: io.stdin, output: io.stdout });
  try {
    return /^y(es)?$/i.test((await prompt.question(question)).trim());
  } finally {
    prompt.close();
  }
}

/** The terminal UI's view of a runtime. */
export function createInteractiveHost(
  runtime: Runtime,
  host: {
    readonly cwd: string;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly homeDir: string;
    /** `--base-url`, named by messages about a failed connection. */
    readonly baseUrlFlag?: string;
  },
): InteractiveHost {
  const { cwd, env, homeDir } = host;
  // Shift+Tab offers bypassPermissions only to a session that started in it.
  const startedInBypass = runtime.permissions.mode === 'bypassPermissions';
  return {
    ...createCommandHost(runtime, host),
    status: () => ({
      provider: runtime.provider.name,
      model: runtime.session.model(),
      mode: runtime.permissions.mode,
      sessionId: runtime.session.id(),
      cwd,
      contextTokens: runtime.session.lastInputTokens(),
      contextWindow: CONTEXT_WINDOW,
      ...sessionSpending({
        byModel: runtime.session.spending().byModel(),
        currentModel: runtime.session.model(),
        prices: runtime.prices,
      }),
    }),
    welcome: () => ({ version: packageVersion(), projectTrust: runtime.settings.projectTrust }),
    errorContext: () => ({
      ...modelErrorContextOf({
        provider: runtime.provider.name,
        model: runtime.session.model(),
        baseUrlFlag: host.baseUrlFlag,
        env,
      }),
      modelCommand: true,
    }),
    submit: (prompt, signal) => runtime.session.submit(prompt, signal),
    setApprover: (approver) => runtime.session.setApprover(approver),
    setInteractionChannel: (channel) => {
      runtime.session.services.set(INTERACTION_CHANNEL, channel);
    },
    todos: () => runtime.session.todos(),
    onTodosChange: (listener) =>
      runtime.session.todoStore.subscribe((change) => {
        if (change.agentId === 'main') listener(change.todos);
      }),
    describePermissions: () =>
      describePermissions({
        mode: runtime.permissions.mode,
        loaded: runtime.settings.rules,
        remembered: runtime.rememberedRules,
        files: runtime.settings.files,
      }),
    describeMcp: () => {
      const servers = runtime.mcp?.servers() ?? [];
      if (servers.length === 0) return 'No MCP servers are configured.';
      return servers
        .map(
          (server) =>
            `${server.name} (${server.transport}, ${server.scope}): ${server.state.status}, ${server.toolNames.length} tools${'reason' in server.state ? ` — ${String(server.state.reason)}` : ''}`,
        )
        .join('\n');
    },
    describeHooks: () => {
      const hooks = listHooks(runtime.settings.hooks, { cwd, env });
      return hooks.length === 0 ? 'No hooks are in force.' : hooks.map(describeListedHook).join('\n');
    },
    cyclePermissionMode: () => {
      const bypassAvailable = startedInBypass && !runtime.settings.bypassPermissionsDisabled;
      runtime.permissions.setMode(nextPermissionMode(runtime.permissions.mode, { bypassAvailable }));
      return runtime.permissions.mode;
    },
    trustFolder: (signal) => trustFolder({ cwd, env, homeDir, guard: runtime.settingsGuard, signal }),
    compact: (signal) => runtime.session.compact(signal),
    listSessions: async () => {
      const { configDirectory, createSessionStore } = await import('../session/index.js');
      return createSessionStore({ configDir: configDirectory(env, homeDir), cwd }).list();
    },
    resume: (sessionId) => runtime.session.resume(sessionId),
    history: () => runtime.session.messages(),
    describeInput: (toolName, input) => {
      try {
        return runtime.session.pool().find(toolName)?.describeInput(input);
      } catch {
        return undefined;
      }
    },
    clear: () => runtime.session.clear(),
    transcriptPath: () => runtime.session.transcript().path,
    close: () => runtime.session.close(),
  };
}

/** `toolplane` without `-p`: the terminal UI. Ink and React are loaded only here. */
export async function runInteractiveSession(args: RunArguments, io: CommandIo): Promise<number> {
  const cwd = args.cwd ?? io.cwd;
  // Once the UI draws, warnings (a saved rule, a settings file that changed) go into its transcript.
  const warnings = createWarningRelay((line) => io.stderr.write(`${line}\n`));
  const runtime = await createRuntime({
    args,
    cwd,
    env: io.env,
    homeDir: io.homeDir,
    interactive: true,
    warn: warnings.warn,
    askTrust: (folder) => askTrust(folder, io),
    askConfirmHeld: (held) => askYesNo(heldFileQuestion(held), io),
  });
  const { runInteractive } = await import('./tui/run-interactive.js');
  const hostOptions = { cwd, env: io.env, homeDir: io.homeDir, ...(args.baseUrl ? { baseUrlFlag: args.baseUrl } : {}) };
  const host = createInteractiveHost(runtime, hostOptions);
  return runInteractive(
    { ...host, onWarning: warnings.listen },
    {
      ...(args.prompt ? { initialPrompt: args.prompt } : {}),
    },
  );
}
