import type { CallSubject } from '../../contract/gates.js';
import { createServices } from '../../contract/services.js';
import type { AnyTool } from '../../contract/tool.js';

/** A call of `tool` with `input` in `cwd`, as the hook gate sees one. */
export function callSubject(tool: AnyTool, input: Record<string, unknown>, cwd = '/work'): CallSubject {
  return {
    tool,
    input,
    toolUseId: 'toolu_1',
    context: {
      toolUseId: 'toolu_1',
      signal: new AbortController().signal,
      cwd,
      sessionId: 's',
      agentId: 'main',
      permissionMode: 'default',
      services: createServices(),
    },
  };
}
