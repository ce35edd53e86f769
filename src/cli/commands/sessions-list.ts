import { configDirectory, createSessionStore } from '../../session/index.js';
import type { CommandIo } from '../headless.js';

/** `toolplane sessions list [--json]`: the sessions of this folder, newest first. */
export async function runSessionsList(argv: readonly string[], io: CommandIo): Promise<number> {
  const store = createSessionStore({
    configDir: configDirectory(io.env, io.homeDir),
    cwd: io.cwd,
  });
  const sessions = await store.list();
  if (argv.includes('--json')) {
    io.stdout.write(
      `${JSON.stringify(sessions.map((session) => ({ id: session.id, path: session.path, modified: session.modified.toISOString(), first_prompt: session.firstPrompt })))}\n`,
    );
    return 0;
  }
  if (sessions.length === 0) {
    io.stdout.write('No sessions in this folder yet.\n');
    return 0;
  }
  for (const session of sessions) {
    io.stdout.write(
      `${session.id}  ${session.modified.toISOString()}  ${session.firstPrompt.replace(/\s+/g, ' ').slice(0, 70)}\n`,
    );
  }
  return 0;
}
