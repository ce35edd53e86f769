/** The model-facing description of the Agent tool. */
export function agentPrompt(agentTypes: readonly { readonly name: string; readonly description: string }[]): string {
  const types =
    agentTypes.length > 0
      ? `\n\nAgent types:\n${agentTypes.map((type) => `- ${type.name}: ${type.description}`).join('\n')}`
      : '';
  return `Starts a subagent: a separate agent with its own context and tools that works on a self-contained task and reports back once, with its final message.

Use it for broad searches across a large codebase, research that would fill your context with material you only need the conclusion of, or independent pieces of work that can proceed in parallel (several Agent calls in one response run concurrently when they only read).

Do not use it for a single file read or a specific search (use Read, Grep or Glob), or for work that needs the conversation so far: the subagent sees only your prompt.

Write the prompt as a complete brief: the goal, what is known, what to return (and in what form), and any limits. The subagent's permission checks and hooks are the same as yours. Its answer is not shown to the user: relay what matters.${types}`;
}
