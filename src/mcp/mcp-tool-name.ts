import { createHash } from 'node:crypto';

/** The longest tool name the API accepts. */
const MAX_NAME_LENGTH = 64;
/** Length of the hex hash appended to names that were cut or had to be told apart. */
const HASH_LENGTH = 8;
const DISALLOWED = /[^a-zA-Z0-9_-]/g;

/** A tool as a server names it: the structured pair a model-facing name is built from. */
export type McpToolRef = { readonly server: string; readonly tool: string };

/** A short stable hash of a (server, tool) pair, used to keep cut or clashing names distinct. */
export function hashMcpToolRef(ref: McpToolRef): string {
  return createHash('sha256').update(`${ref.server}\u0000${ref.tool}`).digest('hex').slice(0, HASH_LENGTH);
}

/** Replaces every character the API's name pattern rejects with `_`. */
export function sanitizeNamePart(part: string): string {
  const cleaned = part.replace(DISALLOWED, '_');
  return cleaned.length > 0 ? cleaned : '_';
}

/** The longest server name, sanitized, that keeps `mcp__<server>__` whole in a cut tool name. */
export const MAX_MCP_SERVER_NAME_LENGTH = 48;

/**
 * Why a server name cannot be used, or undefined. Tool names are `mcp__<server>__<tool>` and are
 * split at the first `__` after `mcp__`: the server is what comes before it, the tool everything
 * after (a tool's own name may contain `__`). So a server name, once characters outside
 * `A-Za-z0-9_-` became `_`, must not contain `__` nor start or end with `_`: otherwise
 * `mcp__docs__admin__x` could be tool `admin__x` of server `docs` or tool `x` of server
 * `docs__admin`, and a rule for `mcp__docs` would cover both. It must also be short enough that
 * a tool name cut to 64 characters still starts with `mcp__<server>__`, which server rules match.
 */
export function mcpServerNameProblem(server: string): string | undefined {
  const sanitized = sanitizeNamePart(server);
  const shown =
    sanitized === server ? JSON.stringify(server) : `${JSON.stringify(server)} (${sanitized} in tool names)`;
  if (sanitized.includes('__') || sanitized.startsWith('_') || sanitized.endsWith('_')) {
    return `server name ${shown} is ambiguous: tool names are mcp__<server>__<tool>, split at the first "__", so a server name must not contain "__" or start or end with "_"; rename the server (for example with "-")`;
  }
  if (sanitized.length > MAX_MCP_SERVER_NAME_LENGTH) {
    return `server name ${shown} is longer than ${MAX_MCP_SERVER_NAME_LENGTH} characters, so its tool names could not keep it whole; shorten it`;
  }
  return undefined;
}

/**
 * The model-facing name of an MCP tool: `mcp__<server>__<tool>`, each part sanitized to the API's
 * pattern `^[a-zA-Z0-9_-]{1,64}$`. A name longer than 64 characters is cut and ends with `_` plus
 * an 8-character hash of the original pair, so two long names that share a prefix stay distinct.
 */
export function mcpToolName(ref: McpToolRef): string {
  const full = `mcp__${sanitizeNamePart(ref.server)}__${sanitizeNamePart(ref.tool)}`;
  if (full.length <= MAX_NAME_LENGTH) return full;
  return appendHash(full, ref);
}

/** `base` plus `_<hash of ref>`, with `base` cut so the whole fits in 64 characters. */
function appendHash(base: string, ref: McpToolRef): string {
  const suffix = `_${hashMcpToolRef(ref)}`;
  return `${base.slice(0, MAX_NAME_LENGTH - suffix.length)}${suffix}`;
}

/** Two different (server, tool) pairs that sanitize to the same name, and how they were told apart. */
export type McpToolNameCollision = {
  /** The name both pairs sanitize to. */
  readonly name: string;
  /** The pair that kept `name` (first in order). */
  readonly kept: McpToolRef;
  /** The later pair, renamed to `renamedTo`. */
  readonly renamed: McpToolRef;
  readonly renamedTo: string;
};

/** Names for a list of tools, with every collision that had to be resolved. */
export type McpToolNameAssignment = {
  /** One name per input ref, in input order; all distinct. */
  readonly names: readonly string[];
  readonly collisions: readonly McpToolNameCollision[];
};

/**
 * Gives every (server, tool) pair a distinct model-facing name. When two different pairs sanitize
 * to the same name, the first in order keeps it and each later one gets `_<hash>` of its own pair
 * appended (cut to 64 characters), so both stay callable; every such case is reported as a
 * collision, never merged. The same pair listed twice is a duplicate, not a collision: it keeps
 * the same name and the caller decides what to do with it. Callers pass refs in a stable order
 * (servers by name, tools in server order) so names are stable across sessions.
 */
export function assignMcpToolNames(refs: readonly McpToolRef[]): McpToolNameAssignment {
  const owners = new Map<string, McpToolRef>();
  const byPair = new Map<string, string>();
  const names: string[] = [];
  const collisions: McpToolNameCollision[] = [];
  for (const ref of refs) {
    const pair = `${ref.server}\u0000${ref.tool}`;
    const known = byPair.get(pair);
    if (known !== undefined) {
      names.push(known);
      continue;
    }
    const name = mcpToolName(ref);
    const owner = owners.get(name);
    let assigned = name;
    if (owner !== undefined) {
      assigned = appendHash(name, ref);
      // A renamed name can itself be taken (crafted input); hash again until it is free.
      for (let round = 1; owners.has(assigned); round += 1) {
        assigned = appendHash(name, { server: ref.server, tool: `${ref.tool}\u0000${round}` });
      }
      collisions.push({ name, kept: owner, renamed: ref, renamedTo: assigned });
    }
    owners.set(assigned, ref);
    byPair.set(pair, assigned);
    names.push(assigned);
  }
  return { names, collisions };
}
