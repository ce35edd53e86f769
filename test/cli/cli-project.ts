import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { MockModelServer } from '../../src/testing/mock-model-server.js';

/** What a CLI test works in: a temporary home, a project in it (with `.claude/`), and its mock model server. */
export type CliProject = { home: string; project: string; server: MockModelServer | undefined };

/**
 * Registers a fresh temporary home with `project/.claude/` before each test, and after it closes the
 * test's mock server (when it set one) and removes the home. Read the fields inside tests and hooks
 * only: they change with each test.
 */
export function useCliProject(prefix: string): CliProject {
  const state: CliProject = { home: '', project: '', server: undefined };
  beforeEach(async () => {
    state.home = await mkdtemp(join(tmpdir(), prefix));
    state.project = join(state.home, 'project');
    await mkdir(join(state.project, '.claude'), { recursive: true });
  });
  afterEach(async () => {
    await state.server?.close();
    state.server = undefined;
    await rm(state.home, { recursive: true, force: true });
  });
  return state;
}
