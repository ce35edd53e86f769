import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkArchitecture, hostStateReads } from './check-architecture.js';

describe('architecture', () => {
  it('keeps the layers of STYLE.md: leaves and stages import only leaves, tools never reach stages, cli reaches the loop, hooks and results only through session, nothing imports cli, processes and console only where named, only cli reads the environment, working folder and home', () => {
    expect(checkArchitecture(fileURLToPath(new URL('../src', import.meta.url)))).toEqual([]);
  });

  it('finds every way of reading the host: property, element, destructuring, homedir; never comments or strings', () => {
    expect(hostStateReads('const a = process.env.HOME;')).toEqual(['process.env']);
    expect(hostStateReads("const a = process['cwd']();")).toEqual(['process.cwd']);
    expect(hostStateReads('const { env, cwd: here } = process;')).toEqual(['process.env', 'process.cwd']);
    expect(hostStateReads('const h = os.homedir();')).toEqual(['os.homedir']);
    expect(hostStateReads("import { env, cwd as here } from 'node:process';")).toEqual(['process.env', 'process.cwd']);
    expect(hostStateReads("import { argv } from 'node:process';")).toEqual([]);
    expect(hostStateReads('const e = globalThis.process.env;')).toEqual(['process.env']);
    expect(hostStateReads("// process.env\n/* process.cwd() */\nconst s = 'homedir() process.env';")).toEqual([]);
    expect(hostStateReads('const p = process.platform; const { pid } = process;')).toEqual([]);
  });

  it('rejects a tree that breaks the rules (so the check above can fail)', () => {
    const violations = checkArchitecture(
      fileURLToPath(new URL('./__fixtures__/bad-architecture/src', import.meta.url)),
    );
    expect(violations.map((violation) => `${violation.file} -> ${violation.imports}`).sort()).toEqual([
      'cli/reaches-past-session.ts -> ../hooks/create-hook-gate.js',
      'cli/reaches-past-session.ts -> ../loop/query.js',
      'cli/reaches-past-session.ts -> ../results/result-store.js',
      'contract/bad-leaf.ts -> ../permissions/engine.js',
      'execution/uses-cli.ts -> ../cli/main.js',
      'loop/reads-host-indirectly.ts -> os.homedir',
      'loop/reads-host-indirectly.ts -> process.cwd',
      'loop/reads-host-indirectly.ts -> process.env',
      'settings/reads-host.ts -> os.homedir',
      'settings/reads-host.ts -> process.cwd',
      'settings/reads-host.ts -> process.env',
      'tools/read/bad-tool.ts -> ../../execution/runner.js',
      'tools/read/spawns.ts -> console',
      'tools/read/spawns.ts -> node:child_process',
    ]);
  });
});
