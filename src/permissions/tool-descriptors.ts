import type { BuiltinKind } from '../contract/tool.js';

/**
 * What the permission engine knows about built-in tools by name: which rule family governs them,
 * which input field holds the path, whether a call only reads. Used when no tool object is at
 * hand (`permissions explain`) and to read rules written for the reference's tool names.
 */

/** The rule family that governs a tool. */
export type ToolFamily = 'read' | 'edit' | 'bash' | 'web-fetch' | 'agent' | 'network' | 'other';

/** A minimal description of a built-in tool, enough to decide about a call without running it. */
export type BuiltinToolDescriptor = {
  readonly name: string;
  readonly family: ToolFamily;
  /** The input field a path rule matches (`file_path`, `path`, `notebook_path`). */
  readonly pathField?: string;
  /** Whether calls of this tool only read. */
  readonly readOnly: boolean;
  /** Scalar input fields deny and ask rules may match as `Tool(field:value)`. */
  readonly params: readonly string[];
};

/** Input fields that carry a tool's primary content: `Tool(field:…)` rules on them are ignored. */
export const PRIMARY_FIELDS: ReadonlySet<string> = new Set(['command', 'file_path', 'path', 'url', 'notebook_path']);

const DESCRIPTORS: ReadonlyMap<string, BuiltinToolDescriptor> = new Map(
  (
    [
      { name: 'Read', family: 'read', pathField: 'file_path', readOnly: true, params: ['offset', 'limit', 'pages'] },
      { name: 'NotebookRead', family: 'read', pathField: 'notebook_path', readOnly: true, params: [] },
      { name: 'Glob', family: 'read', pathField: 'path', readOnly: true, params: ['pattern'] },
      {
        name: 'Grep',
        family: 'read',
        pathField: 'path',
        readOnly: true,
        params: ['pattern', 'glob', 'type', 'output_mode', 'multiline', '-i', '-n', '-A', '-B', '-C', 'head_limit'],
      },
      { name: 'LS', family: 'read', pathField: 'path', readOnly: true, params: [] },
      { name: 'Edit', family: 'edit', pathField: 'file_path', readOnly: false, params: ['replace_all'] },
      { name: 'MultiEdit', family: 'edit', pathField: 'file_path', readOnly: false, params: [] },
      { name: 'Write', family: 'edit', pathField: 'file_path', readOnly: false, params: [] },
      {
        name: 'NotebookEdit',
        family: 'edit',
        pathField: 'notebook_path',
        readOnly: false,
        params: ['cell_id', 'cell_type', 'edit_mode'],
      },
      {
        name: 'Bash',
        family: 'bash',
        readOnly: false,
        params: ['run_in_background', 'timeout', 'description', 'dangerouslyDisableSandbox'],
      },
      { name: 'WebFetch', family: 'web-fetch', readOnly: true, params: ['prompt'] },
      { name: 'WebSearch', family: 'network', readOnly: true, params: ['query'] },
      {
        name: 'Agent',
        family: 'agent',
        readOnly: false,
        params: ['subagent_type', 'model', 'description', 'prompt', 'run_in_background'],
      },
      { name: 'TodoWrite', family: 'other', readOnly: true, params: [] },
      { name: 'ToolSearch', family: 'other', readOnly: true, params: ['query'] },
      { name: 'TaskOutput', family: 'other', readOnly: true, params: [] },
      { name: 'TaskStop', family: 'other', readOnly: false, params: [] },
      { name: 'AskUserQuestion', family: 'other', readOnly: true, params: [] },
      { name: 'ExitPlanMode', family: 'other', readOnly: false, params: [] },
    ] satisfies BuiltinToolDescriptor[]
  ).map((descriptor) => [descriptor.name, descriptor]),
);

/** Names the reference accepts for a tool that toolplane calls by another name. */
const CANONICAL_NAMES: ReadonlyMap<string, string> = new Map([['Task', 'Agent']]);

/** The canonical name rules use for a tool (`Task` → `Agent`); other names are returned as they are. */
export function canonicalToolName(name: string): string {
  return CANONICAL_NAMES.get(name) ?? name;
}

/** The descriptor of a built-in tool, by canonical name or accepted alias. */
export function describeBuiltinTool(name: string): BuiltinToolDescriptor | undefined {
  return DESCRIPTORS.get(canonicalToolName(name));
}

/** Names of all tools the descriptor table knows. */
export function builtinToolNames(): readonly string[] {
  return [...DESCRIPTORS.keys()];
}

/** Built-ins whose calls in plan mode go through the ordinary flow (they plan, they do not change files). */
export const PLAN_MODE_TOOLS: ReadonlySet<BuiltinKind> = new Set([
  'TodoWrite',
  'ExitPlanMode',
  'EnterPlanMode',
  'AskUserQuestion',
  'ToolSearch',
  'TaskOutput',
]);
