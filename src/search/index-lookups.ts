/**
 * The documents of each server as one flat list: the tools of server s are
 * `serverDocs[serverStart[s] .. serverStart[s+1]]`, in document order (`docServer` -1: no server).
 */
export function groupByServer(
  docServer: Int32Array,
  serverCount: number,
): { readonly serverStart: Int32Array; readonly serverDocs: Int32Array } {
  const serverStart = new Int32Array(serverCount + 1);
  for (const server of docServer) if (server >= 0) serverStart[server + 1] = (serverStart[server + 1] as number) + 1;
  for (let server = 0; server < serverCount; server++) {
    serverStart[server + 1] = (serverStart[server + 1] as number) + (serverStart[server] as number);
  }
  const serverDocs = new Int32Array(serverStart[serverCount] as number);
  const serverCursor = serverStart.slice(0, serverCount);
  for (let doc = 0; doc < docServer.length; doc++) {
    const server = docServer[doc] as number;
    if (server < 0) continue;
    const at = serverCursor[server] as number;
    serverCursor[server] = at + 1;
    serverDocs[at] = doc;
  }
  return { serverStart, serverDocs };
}

/**
 * Name lookups of an index: lower-case names, the documents sorted by them (ties by document, for
 * prefix lookups), and each lower-case name's first document.
 */
export function nameLookups(names: readonly string[]): {
  readonly lowerNames: readonly string[];
  readonly nameOrder: Int32Array;
  readonly exactNames: ReadonlyMap<string, number>;
} {
  const size = names.length;
  const lowerNames = names.map((name) => name.toLowerCase());
  const nameOrder = Int32Array.from({ length: size }, (_, i) => i);
  nameOrder.sort((a, b) => {
    const left = lowerNames[a] as string;
    const right = lowerNames[b] as string;
    return left < right ? -1 : left > right ? 1 : a - b;
  });
  const exactNames = new Map<string, number>();
  for (let doc = size - 1; doc >= 0; doc--) exactNames.set(lowerNames[doc] as string, doc);
  return { lowerNames, nameOrder, exactNames };
}
