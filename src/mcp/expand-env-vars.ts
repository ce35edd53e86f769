/** The result of expanding `${VAR}` references in one string. */
export type EnvExpansion = {
  readonly value: string;
  /** Variables referenced without a default that are not set; the value has them as empty text. */
  readonly missing: readonly string[];
};

const REFERENCE = /\$\{([^}]+)\}/g;

/**
 * Expands `${VAR}` and `${VAR:-default}` references, the way the reference system expands them in
 * MCP server configs. A variable that is set (even to empty text) is used as it is; an unset one
 * takes its default, or expands to empty text and is listed in `missing`. Nothing else is
 * interpreted: `$VAR` without braces stays as written.
 */
export function expandEnvVars(text: string, env: Readonly<Record<string, string | undefined>>): EnvExpansion {
  const missing: string[] = [];
  const value = text.replace(REFERENCE, (_match, body: string) => {
    const separator = body.indexOf(':-');
    const name = separator === -1 ? body : body.slice(0, separator);
    const fallback = separator === -1 ? undefined : body.slice(separator + 2);
    const found = Object.hasOwn(env, name) ? env[name] : undefined;
    if (found !== undefined) return found;
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return '';
  });
  return { value, missing };
}
