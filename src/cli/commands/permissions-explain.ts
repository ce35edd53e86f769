import { parseArgs } from 'node:util';
import { PERMISSION_MODES, type PermissionMode } from '../../contract/permission.js';
import { explainDecision, type ExplainedDecision } from '../../permissions/explain-decision.js';
import { loadSettings, type LoadedSettings } from '../../settings/load-settings.js';
import { UsageError } from '../args.js';
import type { CommandIo } from '../headless.js';

const USAGE =
  'Usage: toolplane permissions explain --tool NAME --input JSON [--cwd DIR] [--settings FILE|JSON] [--permission-mode MODE] [--trust-project] [--json]';

/**
 * `toolplane permissions explain`: prints the decision the plane would make for one call before
 * any approver (`ask` where a person would be asked; a headless run would deny it), without
 * running anything. Settings files in the folder and the user folder are read as in a real
 * headless run: the project's own allow rules count only in a trusted folder (`--trust-project`,
 * `TOOLPLANE_TRUST_PROJECT=1` or `toolplane trust`). Exit code 0 whatever the decision; 1 for a settings error; 2 for bad arguments.
 */
export async function runPermissionsExplain(argv: readonly string[], io: CommandIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        tool: { type: 'string' },
        input: { type: 'string' },
        cwd: { type: 'string' },
        settings: { type: 'string' },
        'permission-mode': { type: 'string' },
        'trust-project': { type: 'boolean' },
        json: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  if (!values.tool) throw new UsageError(`--tool is required.\n${USAGE}`);
  let input: unknown = {};
  if (values.input !== undefined) {
    try {
      input = JSON.parse(values.input);
    } catch (error) {
      throw new UsageError(`--input is not valid JSON (${error instanceof Error ? error.message : String(error)}).`);
    }
  }
  const mode = values['permission-mode'];
  if (mode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    throw new UsageError(`--permission-mode must be one of ${PERMISSION_MODES.join(', ')}.`);
  }
  const cwd = values.cwd ?? io.cwd;
  const { settings, explained } = await explainWithSettings(
    { cwd, io, trustProject: values['trust-project'] ?? false, settings: values.settings, mode },
    { tool: values.tool, input },
  );
  for (const warning of settings.warnings)
    io.stderr.write(`warning: ${warning.file ? `${warning.file}: ` : ''}${warning.message}\n`);
  // Which files the policy came from, toolplane's and Claude Code's alike, highest precedence first.
  const settingsFiles = settings.files.map((file) => file.path);
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ ...explained, settingsFiles })}\n`);
  } else {
    io.stdout.write(`${explained.decision}: ${explained.reason}\n`);
    if (explained.rule) io.stdout.write(`rule: ${explained.rule}${explained.source ? ` (${explained.source})` : ''}\n`);
    io.stdout.write(`settings files read: ${settingsFiles.join(', ') || '(none)'}\n`);
  }
  if (explained.allowsAnyCode !== null) {
    io.stderr.write(
      `warning: rule ${explained.rule ?? ''} allows any code (${explained.allowsAnyCode}); narrow it to the script or command you mean\n`,
    );
  }
  return 0;
}

/** Where a decision is explained: the folder, its settings as a headless run reads them, and what the command line adds. */
export type ExplainSetting = {
  readonly cwd: string;
  readonly io: Pick<CommandIo, 'env' | 'homeDir'>;
  readonly trustProject: boolean;
  /** `--settings`: a file or inline JSON. */
  readonly settings: string | undefined;
  readonly mode: string | undefined;
};

/** The decision for one call under the settings a headless run in `setting.cwd` would read. */
export async function explainWithSettings(
  setting: ExplainSetting,
  call: { readonly tool: string; readonly input: unknown },
): Promise<{ readonly settings: LoadedSettings; readonly explained: ExplainedDecision }> {
  const settings = await loadSettings({
    cwd: setting.cwd,
    env: setting.io.env,
    homeDir: setting.io.homeDir,
    session: 'headless',
    trustProject: setting.trustProject,
    cli: {
      ...(setting.settings !== undefined ? { settings: setting.settings } : {}),
      ...(setting.mode ? { permissionMode: setting.mode as PermissionMode } : {}),
    },
  });
  const explained = await explainDecision({
    toolName: call.tool,
    input: call.input,
    rules: settings.rules,
    mode: settings.defaultMode,
    cwd: setting.cwd,
    additionalDirectories: settings.additionalDirectories.map((directory) => directory.path),
    homeDir: setting.io.homeDir,
    protectedFolders: [settings.userDir],
  });
  return { settings, explained };
}
