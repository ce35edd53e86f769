import { Writable } from 'node:stream';
import { SANDBOX } from '../contract/sandbox.js';
import { listHooks } from './hook-listing.js';
import type { Runtime } from './runtime/create-runtime.js';
import { describeAgents, describeConfig, describeCost, type ConfigView } from './slash-commands/describe-session.js';
import { commandTurn, customCommandsOf } from './slash-commands/prompt-turn.js';
import type { InteractiveHost } from './tui/interactive-host.js';

/** The host's side of `/model`, `/cost`, `/config`, `/doctor`, `/agents` and custom commands. */
export type CommandHost = Required<
  Pick<
    InteractiveHost,
    'setModel' | 'describeCost' | 'describeConfig' | 'doctor' | 'describeAgents' | 'customCommands' | 'runCustomCommand'
  >
>;

/** The slash commands' view of a runtime: what they show and what they change. */
export function createCommandHost(
  runtime: Runtime,
  where: {
    readonly cwd: string;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly homeDir: string;
  },
): CommandHost {
  const { cwd, env, homeDir } = where;
  const customCommands = () => customCommandsOf(runtime, { cwd, homeDir });
  return {
    setModel: (model) => runtime.session.setModel(model),
    describeCost: () => describeCost(runtime.session.spending().byModel(), runtime.prices),
    describeConfig: () =>
      describeConfig(configView(runtime, { cwd, env, customCommands: customCommands().commands.size })),
    doctor: async () => {
      const { runDoctor } = await import('./commands/doctor.js');
      let report = '';
      const stdout = new Writable({
        write(chunk: Buffer | string, _encoding, done) {
          report += chunk.toString();
          done();
        },
      });
      await runDoctor([], { stdout, stderr: stdout, stdin: process.stdin, env, cwd, homeDir });
      return report.trimEnd();
    },
    describeAgents: () => describeAgents(runtime.agentTypes),
    customCommands,
    runCustomCommand: (command, argument, signal) => commandTurn(runtime, command, argument, signal),
  };
}

function configView(
  runtime: Runtime,
  where: {
    readonly cwd: string;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly customCommands: number;
  },
): ConfigView {
  const { settings } = runtime;
  const count = (behavior: 'allow' | 'ask' | 'deny') =>
    settings.rules.filter((entry) => entry.behavior === behavior).length;
  const sandboxOn = runtime.session.services.get(SANDBOX) !== undefined;
  return {
    mode: runtime.permissions.mode,
    provider: runtime.provider.name,
    model: runtime.session.model(),
    cwd: where.cwd,
    trust: settings.projectTrust,
    ...(settings.projectTrustGrantedBy ? { trustGrantedBy: settings.projectTrustGrantedBy } : {}),
    files: settings.files,
    heldFiles: settings.heldFiles.map((held) => held.file),
    sandbox: sandboxOn ? 'on' : settings.sandbox.enabled ? 'not available here' : 'off in the settings',
    mcpServers: runtime.mcp?.servers().length ?? 0,
    hooks: listHooks(settings.hooks, { cwd: where.cwd, env: where.env }).length,
    rules: { allow: count('allow'), ask: count('ask'), deny: count('deny') },
    customCommands: where.customCommands,
  };
}
