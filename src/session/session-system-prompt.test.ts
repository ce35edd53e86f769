import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSessionSystemPrompt } from './session-system-prompt.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolplane-prompt-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('loadSessionSystemPrompt', () => {
  it("names the session's folders and carries the project's instructions, outer first, then the host's text", async () => {
    const project = join(root, 'project');
    await mkdir(project);
    await writeFile(join(root, 'AGENTS.md'), 'OUTER RULE');
    await writeFile(join(project, 'CLAUDE.md'), 'INNER RULE');
    const prompt = await loadSessionSystemPrompt({
      cwd: project,
      append: 'HOST TEXT',
      additionalDirectories: ['/data/extra'],
    });
    expect(prompt).toContain(`Working folder: ${project}`);
    expect(prompt).toContain('Additional folders: /data/extra');
    const outer = prompt.indexOf('OUTER RULE');
    const inner = prompt.indexOf('INNER RULE');
    expect(outer).toBeGreaterThan(-1);
    expect(inner).toBeGreaterThan(outer);
    expect(prompt.indexOf('HOST TEXT')).toBeGreaterThan(inner);
  });
});
