import type { Usage } from '../../contract/provider.js';
import type { PermissionMode } from '../../contract/permission.js';
import type { PriceTable } from '../../providers/index.js';
import type { RunUsage, SubagentType } from '../../session/index.js';
import type { ProjectTrust } from '../../settings/trust-store.js';

/** `/cost`: the session's tokens and cost so far, model by model, priced by `prices`. */
export function describeCost(spending: RunUsage['modelUsage'], prices: PriceTable): string {
  const models = Object.entries(spending);
  if (models.length === 0) return 'No model requests yet in this session: nothing spent.';
  const lines = ['Spent in this session (its subagents and hooks included):'];
  let total = 0;
  let unpriced = false;
  for (const [model, { usage, costUsd }] of models) {
    const price = prices.priceOf(model);
    total += costUsd;
    unpriced ||= price === undefined;
    const cost = price === undefined ? 'no price known' : `${formatUsd(costUsd)} (${price.basis} price)`;
    lines.push(`  ${model}: ${describeTokens(usage)} — ${cost}`);
  }
  lines.push(`Total: ${formatUsd(total)}`);
  if (unpriced)
    lines.push('A model without a price counts as $0; give it one with the modelPrices setting (README: Settings).');
  return lines.join('\n');
}

function describeTokens(usage: Usage): string {
  const parts = [`${count(usage.inputTokens)} input`, `${count(usage.outputTokens)} output`];
  if (usage.cacheReadInputTokens) parts.push(`${count(usage.cacheReadInputTokens)} cache read`);
  if (usage.cacheCreationInputTokens) parts.push(`${count(usage.cacheCreationInputTokens)} cache write`);
  return `${parts.join(', ')} tokens`;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}

function formatUsd(value: number): string {
  // Under a cent, the figure keeps its significant digits ($0.0021), never a rounded $0.0000.
  return `$${value < 0.01 ? String(Number(value.toFixed(6))) : value.toFixed(4)}`;
}

/** What `/config` shows: the settings in force for this session. */
export type ConfigView = {
  readonly mode: PermissionMode;
  readonly provider: string;
  readonly model: string;
  readonly cwd: string;
  readonly trust: ProjectTrust;
  readonly trustGrantedBy?: string;
  readonly files: readonly { readonly source: string; readonly path: string }[];
  readonly heldFiles: readonly string[];
  readonly sandbox: 'on' | 'off in the settings' | 'not available here';
  readonly mcpServers: number;
  readonly hooks: number;
  readonly rules: { readonly allow: number; readonly ask: number; readonly deny: number };
  readonly customCommands: number;
};

/** `/config`: the settings in force, read-only. */
export function describeConfig(view: ConfigView): string {
  const trust = view.trust === 'trusted' ? `trusted (by ${view.trustGrantedBy ?? 'the trust store'})` : `${view.trust}`;
  const lines = [
    `Permission mode: ${view.mode}`,
    `Model: ${view.model} (${view.provider})`,
    `Project folder: ${view.cwd} — ${trust}`,
    `Settings files read (${view.files.length}):`,
    ...view.files.map((file) => `  ${file.source.padEnd(16)} ${file.path}`),
    ...(view.heldFiles.length > 0
      ? [
          'Held (a tool call changed them; only their deny and ask rules apply):',
          ...view.heldFiles.map((f) => `  ${f}`),
        ]
      : []),
    `Rules: ${view.rules.deny} deny, ${view.rules.ask} ask, ${view.rules.allow} allow (/permissions lists them)`,
    `Sandbox for Bash: ${view.sandbox}`,
    `MCP servers: ${view.mcpServers} (/mcp)`,
    `Hooks: ${view.hooks} (/hooks)`,
    `Custom commands: ${view.customCommands} (/help)`,
  ];
  if (view.trust !== 'trusted')
    lines.push('Until the folder is trusted, its settings give only deny and ask rules: toolplane trust changes that.');
  return lines.join('\n');
}

/** `/agents`: the subagent types the Agent tool offers. */
export function describeAgents(types: readonly SubagentType[]): string {
  const lines = [`Subagent types (${types.length}), started by the model with the Agent tool:`];
  for (const type of types) {
    lines.push(`  ${type.name}: ${type.description}`);
    lines.push(`    tools: ${type.tools === undefined ? 'all of the main agent’s but Agent' : type.tools.join(', ')}`);
    if (type.model !== undefined) lines.push(`    model: ${type.model}`);
    if ('file' in type && typeof type.file === 'string') lines.push(`    from ${type.file}`);
  }
  lines.push(
    'More types come from .claude/agents/*.md and .toolplane/agents/*.md (the project’s in a trusted folder, and your own), or from a program driving toolplane (stream-json initialize).',
  );
  return lines.join('\n');
}
