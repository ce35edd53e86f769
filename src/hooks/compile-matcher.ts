/** A compiled hook matcher: tests a tool name (or, for session events, their trigger). */
export type CompiledMatcher = {
  readonly test: (name: string) => boolean;
  /** Set when the matcher is not a valid regular expression (it then matches nothing). */
  readonly error?: string;
};

const MATCH_ALL: CompiledMatcher = Object.freeze({ test: () => true });
const EXACT_LIST = /^[A-Za-z0-9_\- ,|]+$/;

/**
 * Compiles a hook matcher once, with the reference's rules: `*`, empty or absent matches all; a
 * string of only letters, digits, `_`, `-`, spaces, `,` and `|` is an exact name or a list of
 * exact names; anything else is an unanchored, case-sensitive regular expression (`Edit.*` also
 * matches `NotebookEdit`; `mcp__github__.*` matches that server's tools). An invalid expression
 * matches nothing and carries `error`, so a typo disables the hook loudly, not silently.
 */
export function compileMatcher(matcher: string | undefined): CompiledMatcher {
  if (matcher === undefined || matcher.trim() === '' || matcher.trim() === '*') return MATCH_ALL;
  if (EXACT_LIST.test(matcher)) {
    const names = new Set(
      matcher
        .split(/[|,]/)
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    );
    if (names.size === 1) {
      const [only] = names;
      return { test: (name) => name === only };
    }
    return { test: (name) => names.has(name) };
  }
  try {
    const pattern = new RegExp(matcher);
    return { test: (name) => pattern.test(name) };
  } catch (error) {
    return {
      test: () => false,
      error: `matcher ${JSON.stringify(matcher)} is not a valid regular expression (${(error as Error).message}); its hooks never run`,
    };
  }
}
