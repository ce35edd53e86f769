import type { Services } from '../contract/services.js';
import type { AnyTool } from '../contract/tool.js';
import { ToolplaneError } from '../errors/toolplane-error.js';

/** A service a tool declares it needs that the registry does not hold. */
export type MissingService = { readonly tool: string; readonly service: string };

/** The declared (required) services of `tools` that `services` does not hold, in tool order. */
export function findMissingServices(tools: readonly AnyTool[], services: Services): readonly MissingService[] {
  return tools.flatMap((tool) =>
    tool.services
      .filter((key) => services.get(key) === undefined)
      .map((key) => ({ tool: tool.name, service: key.name })),
  );
}

/**
 * Throws `MISSING_SERVICE` naming every tool and the service it needs but the registry lacks, so a
 * session missing one fails at start instead of at the tool's first call.
 */
export function checkToolServices(tools: readonly AnyTool[], services: Services): void {
  const missing = findMissingServices(tools, services);
  if (missing.length === 0) return;
  const lines = missing.map((entry) => `${entry.tool} needs the service "${entry.service}"`);
  throw new ToolplaneError(
    'MISSING_SERVICE',
    `Tools need services that are not registered: ${lines.join('; ')}. Register them in the session's services (createServices().set(KEY, value)) or leave the tool out.`,
  );
}
