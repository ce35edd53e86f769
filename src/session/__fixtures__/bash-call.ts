import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import type { CallSubject } from '../../contract/gates.js';
import { callSubject } from '../../hooks/__fixtures__/call-subject.js';

/** A tool with the built-in Bash's identity, as rules and hooks judge it. */
export const builtinBash = defineBuiltinTool('Bash', {
  name: 'Bash',
  inputSchema: z.object({ command: z.string() }),
  prompt: '',
  call: () => Promise.resolve(''),
});

/** A Bash call of `command` in `cwd`, as the hook gate sees one. */
export function bashCall(command: string, cwd: string): CallSubject {
  return callSubject(builtinBash, { command }, cwd);
}
