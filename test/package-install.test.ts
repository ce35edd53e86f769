import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The library as another project gets it: `npm pack`, the tarball unpacked into a fresh project's
// node_modules, and the README's agent run there through the public entry points only. The
// registry is not needed: the dependencies are linked from this checkout's node_modules, where
// `npm install <tarball>` would have put them from the registry.

const run = promisify(execFile);
const repo = fileURLToPath(new URL('..', import.meta.url));
let work: string;
let project: string;
let packedFiles: string[];

/** The README's code block that starts with `// file: NAME`. */
async function readmeSnippet(name: string): Promise<string> {
  const readme = await readFile(join(repo, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```(?:js|ts)\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const block = blocks.find((text) => text.startsWith(`// file: ${name}\n`));
  if (!block) throw new Error(`README.md has no code block for ${name}`);
  return block;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'toolplane-package-'));
  // --ignore-scripts: the test run has built dist/ already (pretest); prepare would build again.
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: repo,
  });
  const [packed] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
  packedFiles = packed.files.map((file) => file.path);
  project = join(work, 'consumer');
  const installed = join(project, 'node_modules', 'toolplane');
  await mkdir(installed, { recursive: true });
  await run('tar', ['-xzf', join(work, packed.filename), '-C', installed, '--strip-components=1']);
  const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  for (const dependency of Object.keys(manifest.dependencies)) {
    const link = join(project, 'node_modules', dependency);
    await mkdir(dirname(link), { recursive: true });
    await symlink(join(repo, 'node_modules', dependency), link, 'dir');
  }
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { toolplane: packed.filename } }),
  );
}, 120_000);
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the packed library in another project', () => {
  it('ships the build and the docs, not the sources or the tests', () => {
    expect(packedFiles).toContain('dist/index.js');
    expect(packedFiles).toContain('dist/index.d.ts');
    expect(packedFiles).toContain('dist/tools/index.js');
    expect(packedFiles).toContain('dist/testing/index.js');
    expect(packedFiles).toContain('README.md');
    const sourcesAndTests = packedFiles.filter(
      (file) =>
        file.startsWith('src/') || file.startsWith('test/') || (file.startsWith('dist/') && file.includes('.test.')),
    );
    expect(sourcesAndTests).toEqual([]);
  });

  it("runs the README's agent through the public entry points", async () => {
    await writeFile(join(project, 'agent.mjs'), await readmeSnippet('agent.mjs'));
    const { stdout } = await run(process.execPath, ['agent.mjs'], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '' },
    });
    const lines = stdout.trim().split('\n');
    // The two Reads run in parallel: their order is not fixed.
    expect(lines.slice(0, 2).sort()).toEqual(['Read: denied', 'Read: success']);
    expect(lines.slice(2)).toEqual(['CountWords: success', 'StructuredOutput: success', 'success: {"words":4}']);
  });

  it("reaches only the three entry points, and their types (and the README's imports) resolve", async () => {
    const probe = `
      const names = ['toolplane', 'toolplane/tools', 'toolplane/testing', 'toolplane/dist/loop/query.js'];
      for (const name of names) {
        try { const loaded = await import(name); console.log(name, 'ok', Object.keys(loaded).length > 10); }
        catch (error) { console.log(name, error.code); }
      }`;
    await writeFile(join(project, 'probe.mjs'), probe);
    const { stdout } = await run(process.execPath, ['probe.mjs'], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(stdout.trim().split('\n')).toEqual([
      'toolplane ok true',
      'toolplane/tools ok true',
      'toolplane/testing ok true',
      'toolplane/dist/loop/query.js ERR_PACKAGE_PATH_NOT_EXPORTED',
    ]);
    await writeFile(
      join(project, 'types.ts'),
      [
        "import type { AgentSession, AgentSessionOptions, StructuredOutputOptions } from 'toolplane';",
        "import { createReadTool, INTERACTION_CHANNEL } from 'toolplane/tools';",
        "import { createFakeApprover } from 'toolplane/testing';",
        "const output: StructuredOutputOptions = { schema: { type: 'object' }, maxFailedCalls: 5 };",
        "const tools: AgentSessionOptions['tools'] = [createReadTool()];",
        "export const used: [unknown, unknown, unknown, AgentSession | undefined] = [output, tools, [INTERACTION_CHANNEL, createFakeApprover({ behavior: 'deny' })], undefined];",
        // A mistake must be caught: the option is maxFailedCalls.
        '// @ts-expect-error',
        'export const wrong: StructuredOutputOptions = { schema: {}, maxFailures: 5 };',
        '',
      ].join('\n'),
    );
    await writeFile(join(project, 'imports.ts'), await readmeSnippet('imports.ts'));
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
        },
        files: ['types.ts', 'imports.ts'],
      }),
    );
    const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project }).then(
      () => 'no errors',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(checked).toBe('no errors');
  }, 120_000);
});
