import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { CallSubject } from '../../contract/gates.js';
import { createServices } from '../../contract/services.js';

/** A tool with the built-in Bash's identity, as rules and hooks judge it. */
export const builtinBash = defineBuiltinTool('Bash', {
  name: 'Bash',
  inputSchema: z.object({ command: z.string() }),
  prompt: '',
  call: () => Promise.resolve(''),
});

/** A Bash call of `command` in `cwd`, as the hook gate sees one. */
export function bashCall(command: string, cwd: string): CallSubject {
  return {
    tool: builtinBash,
    input: { command },
    toolUseId: 't',
    context: {
      toolUseId: 't',
      signal: new AbortController().signal,
      cwd,
      sessionId: 's',
      agentId: 'main',
      permissionMode: 'default',
      services: createServices(),
    },
  };
}
