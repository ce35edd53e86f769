import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makePdf } from '../../src/tools/read/__fixtures__/make-pdf.js';
import { isolatedEnv, jsonLines, runCli } from './run-cli.js';

// The command's V8 code cache (src/cli/launch.ts): written on the first run into the config
// folder, used as it is when V8 accepts it, replaced silently when it does not, never in the way.

describe('the code cache of the toolplane command', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'toolplane-code-cache-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  const cacheFolder = () => join(home, '.toolplane', 'cache', 'code');
  const version = () => runCli(['--version'], { cwd: home, env: isolatedEnv(home) });

  async function onlyCacheFile(): Promise<string> {
    const names = await readdir(cacheFolder());
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(new RegExp(`^toolplane-[0-9a-f]{16}-${process.version}-${process.arch}\\.bin$`));
    return join(cacheFolder(), names[0]!);
  }

  it('is written by the first run and kept by the next, which V8 accepts', async () => {
    const first = await version();
    expect(first.code).toBe(0);
    const file = await onlyCacheFile();
    const written = await readFile(file);
    expect(written.length).toBeGreaterThan(10_000);
    const before = await stat(file);
    const second = await version();
    expect(second).toMatchObject({ code: 0, stdout: first.stdout, stderr: '' });
    // A rejected cache would have been written again at exit.
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
    expect(await readdir(cacheFolder())).toHaveLength(1);
  });

  it("the bundle's dynamic imports (pdf.js here, ink in the terminal UI) work on a run compiled from the cache", async () => {
    // V8 drops a script's import() callback when it compiles it from a cache: without the
    // launcher's import, every run after the first failed with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING.
    await writeFile(join(home, 'page.pdf'), makePdf(['cached import works']));
    const script = join(home, 'script.jsonl');
    await writeFile(
      script,
      [
        { content: [{ type: 'tool_use', id: 'pdf', name: 'Read', input: { file_path: join(home, 'page.pdf') } }] },
        { content: [{ type: 'text', text: 'read it' }] },
      ]
        .map((turn) => JSON.stringify(turn))
        .join('\n'),
    );
    const readPdf = () =>
      runCli(['-p', 'read the pdf', '--provider', 'scripted', '--script', script, '--output-format', 'stream-json'], {
        cwd: home,
        env: isolatedEnv(home),
      });
    for (const run of [await readPdf(), await readPdf()]) {
      expect(run.code, run.stderr).toBe(0);
      const result = jsonLines(run.stdout).find((line) => line['type'] === 'user');
      expect(JSON.stringify(result)).toContain('cached import works');
    }
    await onlyCacheFile();
  });

  it("replaces a cache V8 rejects, with the same output and nothing said, and drops older builds' caches", async () => {
    await version();
    const file = await onlyCacheFile();
    await writeFile(file, 'not a code cache');
    await writeFile(join(cacheFolder(), 'toolplane-0123456789abcdef-v20.0.0-x64.bin'), 'an older build');
    const run = await version();
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect(await onlyCacheFile()).toBe(file);
    expect((await readFile(file)).toString('latin1')).not.toBe('not a code cache');
  });

  it('runs without one where the config folder cannot be written', async () => {
    // A file where the cache folder would go: mkdir fails, and the command does not care.
    await writeFile(join(home, '.toolplane'), 'in the way');
    const run = await version();
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
