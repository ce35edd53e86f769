import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkArchitecture } from './check-architecture.js';

describe('architecture', () => {
  it('keeps the layers of STYLE.md: leaves and stages import only leaves, tools never reach stages, cli reaches the loop, hooks and results only through session, nothing imports cli, processes and console only where named', () => {
    expect(checkArchitecture(fileURLToPath(new URL('../src', import.meta.url)))).toEqual([]);
  });

  it('rejects a tree that breaks the rules (so the check above can fail)', () => {
    const violations = checkArchitecture(
      fileURLToPath(new URL('./__fixtures__/bad-architecture/src', import.meta.url)),
    );
    expect(violations.map((violation) => `${violation.file} -> ${violation.imports}`).sort()).toEqual([
      'cli/reaches-past-session.ts -> ../hooks/create-hook-gate.js',
      'cli/reaches-past-session.ts -> ../loop/query.js',
      'contract/bad-leaf.ts -> ../permissions/engine.js',
      'execution/uses-cli.ts -> ../cli/main.js',
      'tools/read/bad-tool.ts -> ../../execution/runner.js',
      'tools/read/spawns.ts -> console',
      'tools/read/spawns.ts -> node:child_process',
    ]);
  });
});
