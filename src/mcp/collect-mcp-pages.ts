/** Most pages one paginated MCP list request (`tools/list`, `resources/list`) may take. */
export const MAX_MCP_LIST_PAGES = 1_000;

/**
 * Collects every item of a paginated MCP list. A server is untrusted: one that names a cursor it
 * already gave, or keeps paging past {@link MAX_MCP_LIST_PAGES}, would otherwise keep the request
 * (and the connection that waits on it) going forever while its items pile up in memory; that
 * ends the listing with an error naming `what` instead.
 */
export async function collectMcpPages<T>(
  what: string,
  fetchPage: (
    cursor: string | undefined,
  ) => Promise<{ readonly items: readonly T[]; readonly nextCursor?: string | undefined }>,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 1; ; pages += 1) {
    const page = await fetchPage(cursor);
    items.push(...page.items);
    cursor = page.nextCursor;
    if (cursor === undefined) return items;
    if (seen.has(cursor))
      throw new Error(
        `the server's ${what} repeated the page cursor ${JSON.stringify(cursor.slice(0, 100))}, so its list never ends`,
      );
    if (pages >= MAX_MCP_LIST_PAGES) throw new Error(`the server's ${what} went on past ${MAX_MCP_LIST_PAGES} pages`);
    seen.add(cursor);
  }
}
