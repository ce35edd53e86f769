import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionMode, PermissionRuleEntry } from '../src/contract/permission.js';
import { SANDBOX } from '../src/contract/sandbox.js';
import { createServices } from '../src/contract/services.js';
import type { ToolUseBlock } from '../src/messages/types.js';
import { initShellParser } from '../src/permissions/bash-parser.js';
import { createPermissionEngine } from '../src/permissions/permission-engine.js';
import { assembleToolPool } from '../src/pool/assemble-tool-pool.js';
import { runToolUses } from '../src/execution/run-tool-uses.js';
import { createFakeApprover, createFakePermissionGate } from '../src/testing/fake-gates.js';
import { createFakeSandbox } from '../src/testing/fake-sandbox.js';
import { createBashTool } from '../src/tools/bash/bash-tool.js';
import { SPILL_FOLDER, createSpillFolder } from '../src/tools/bash/spill-folder.js';

/**
 * The profile a Bash command gets follows from how the plane approved it — through the real
 * permission engine and gate chain, in every mode, with the sandbox faked only to record.
 */
let root: string;
beforeAll(async () => {
  await initShellParser();
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'toolplane-profile-')));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const bash = createBashTool({ env: process.env });

async function decide(options: {
  readonly command: string;
  readonly mode: PermissionMode;
  readonly rules?: readonly Omit<PermissionRuleEntry, 'source' | 'root'>[];
  readonly person?: 'allow' | 'deny';
  readonly dangerouslyDisableSandbox?: boolean;
}) {
  const sandbox = createFakeSandbox();
  const engine = createPermissionEngine({
    rules: (options.rules ?? []).map((rule) => ({ ...rule, source: 'localSettings' as const, root })),
    mode: options.mode,
    cwd: root,
    homeDir: root,
  });
  const approver = options.person ? createFakeApprover({ behavior: options.person }) : undefined;
  const block: ToolUseBlock = {
    type: 'tool_use',
    id: 'b1',
    name: 'Bash',
    input: {
      command: options.command,
      ...(options.dangerouslyDisableSandbox ? { dangerouslyDisableSandbox: true } : {}),
    },
  };
  const run = await runToolUses([block], {
    pool: assembleToolPool({ builtins: [bash] }),
    permissions: engine,
    ...(approver ? { approver } : {}),
    cwd: root,
    sessionId: 's',
    getPermissionMode: () => options.mode,
    services: createServices()
      .set(SANDBOX, sandbox)
      .set(SPILL_FOLDER, createSpillFolder({ path: path.join(root, 'spill') })),
  });
  const record = run.records[0];
  return {
    status: record?.outcome.status,
    profiles: sandbox.requests.map((request) => request.profile),
    asked: approver?.requests.length ?? 0,
    result: record?.result,
  };
}

describe('the sandbox profile follows from the decision', () => {
  it('read-only commands get the read-only profile in every mode, even when a rule also allows them', async () => {
    for (const mode of ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'] as const) {
      expect(await decide({ command: 'ls -la', mode }), mode).toMatchObject({
        status: 'success',
        profiles: ['read-only'],
      });
      expect(
        await decide({ command: 'cat README.md', mode, rules: [{ rule: 'Bash(cat:*)', behavior: 'allow' }] }),
        mode,
      ).toMatchObject({
        profiles: ['read-only'],
      });
    }
  });

  it('rule-, mode- and person-approved commands get the workspace profile', async () => {
    expect(
      await decide({ command: 'npm test', mode: 'default', rules: [{ rule: 'Bash(npm test:*)', behavior: 'allow' }] }),
    ).toMatchObject({
      status: 'success',
      profiles: ['workspace'],
    });
    expect(await decide({ command: 'touch made.txt', mode: 'acceptEdits' })).toMatchObject({ profiles: ['workspace'] });
    expect(await decide({ command: 'echo hi > out.txt', mode: 'bypassPermissions' })).toMatchObject({
      profiles: ['workspace'],
    });
    expect(await decide({ command: 'node -e 1', mode: 'default', person: 'allow' })).toMatchObject({
      profiles: ['workspace'],
      asked: 1,
    });
  });

  it('asks a person before running outside the sandbox in every mode, bypass included, and denies with no one to ask', async () => {
    for (const mode of ['default', 'acceptEdits', 'bypassPermissions'] as const) {
      const approved = await decide({
        command: 'ls',
        mode,
        person: 'allow',
        dangerouslyDisableSandbox: true,
        rules: [{ rule: 'Bash', behavior: 'allow' }],
      });
      expect(approved, mode).toMatchObject({ status: 'success', profiles: [], asked: 1 });
      const headless = await decide({
        command: 'ls',
        mode,
        dangerouslyDisableSandbox: true,
        rules: [{ rule: 'Bash', behavior: 'allow' }],
      });
      expect(headless, mode).toMatchObject({ status: 'denied', profiles: [] });
    }
    expect(
      await decide({ command: 'ls', mode: 'dontAsk', person: 'allow', dangerouslyDisableSandbox: true }),
    ).toMatchObject({ status: 'denied', asked: 0 });
  });

  it('a person who refuses the outside run leaves it unrun', async () => {
    expect(
      await decide({ command: 'ls', mode: 'default', person: 'deny', dangerouslyDisableSandbox: true }),
    ).toMatchObject({ status: 'denied', profiles: [] });
  });

  it("a host's gate cannot let a command out by claiming a person approved it", async () => {
    const sandbox = createFakeSandbox();
    const gate = createFakePermissionGate({
      decide: () => ({ behavior: 'allow', reason: { kind: 'approver', message: 'trust me' } }),
    });
    const run = await runToolUses(
      [{ type: 'tool_use', id: 'g', name: 'Bash', input: { command: 'echo hi', dangerouslyDisableSandbox: true } }],
      {
        pool: assembleToolPool({ builtins: [bash] }),
        permissions: gate,
        cwd: root,
        sessionId: 's',
        services: createServices()
          .set(SANDBOX, sandbox)
          .set(SPILL_FOLDER, createSpillFolder({ path: path.join(root, 'spill') })),
      },
    );
    const content = run.records[0]?.result.content;
    expect(run.records[0]?.result.is_error).toBe(true);
    expect(JSON.stringify(content)).toContain("only a person's approval of this one run allows that");
    expect(sandbox.requests).toHaveLength(0);
  });
});
