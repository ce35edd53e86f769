/** Claude Code's model aliases (`sonnet`, `opus[1m]`, `opusplan`, `default`…), which name no model of ours. */
const ALIAS = /^(?:(?:sonnet|opus|haiku)(?:\[[^\]]*\])?|opusplan|default|best)$/i;

/**
 * The model an agent definition names: none for `inherit` or absent (the session's), and none with
 * a notice for a Claude Code alias (`sonnet`, `opus[1m]`, `opusplan`, `default`…), which names no model of toolplane's
 * providers. Pure.
 */
export function agentModel(model: string | undefined): { readonly model?: string; readonly notice?: string } {
  if (model === undefined || model === 'inherit') return {};
  if (ALIAS.test(model))
    return { notice: `model ${model} is a Claude Code alias, not a model name; the agent uses the session's model` };
  return { model };
}
