/** A `--settings` or `--mcp-config` value that is JSON text rather than a file name. */
export function isInlineJson(value: string): boolean {
  return value.trimStart().startsWith('{');
}
