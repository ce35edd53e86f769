/** Claude Code's model aliases, which name a model family rather than a model. */
const ALIASES = new Set(['sonnet', 'opus', 'haiku']);

/**
 * The model an agent definition names: none for `inherit` or absent (the session's), and none with
 * a notice for a Claude Code alias (`sonnet`, `opus`, `haiku`), which names no model of toolplane's
 * providers. Pure.
 */
export function agentModel(model: string | undefined): { readonly model?: string; readonly notice?: string } {
  if (model === undefined || model === 'inherit') return {};
  if (ALIASES.has(model.toLowerCase()))
    return { notice: `model ${model} is a Claude Code alias, not a model name; the agent uses the session's model` };
  return { model };
}
