import type { IncomingMessage } from 'node:http';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable, Transform } from 'node:stream';
import { rootCertificates } from 'node:tls';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { classifyAddress, isHostAllowed } from './address-policy.js';

/** Options for {@link requestPage}. */
export type RequestPageOptions = {
  /** An https URL. */
  readonly url: URL;
  /** Hosts that may resolve to non-public addresses (loopback, private, link-local, …). */
  readonly allowPrivateHosts: readonly string[];
  /** Extra trusted certificate authorities (PEM), in addition to Node's bundled ones. */
  readonly ca: string | readonly string[] | undefined;
  /** Decoded body bytes read at most; the rest is dropped and `truncated` set. */
  readonly maxBytes: number;
  readonly userAgent: string;
  /** Resolves a host name to every address it has. Default: the system resolver. */
  readonly resolveHost?: ResolveHost;
  readonly signal: AbortSignal;
};

/** One resolved address. */
export type ResolvedAddress = { readonly address: string; readonly family: number };

/** Resolves a host name to all of its addresses. */
export type ResolveHost = (hostname: string) => Promise<readonly ResolvedAddress[]>;

// node:dns/promises and node:https load on the first fetch, not with the command.
const systemResolve: ResolveHost = async (hostname) =>
  (await import('node:dns/promises')).lookup(hostname, { all: true, verbatim: true });

/** One HTTP response, redirects not followed. */
export type PageResponse = {
  readonly status: number;
  readonly statusText: string;
  readonly contentType: string | undefined;
  /** The `Location` header of a redirect. */
  readonly location: string | undefined;
  readonly body: Buffer;
  readonly truncated: boolean;
};

/** Thrown when a host resolves to an address WebFetch must not connect to. */
export class NonPublicAddressError extends Error {
  readonly host: string;
  readonly address: string;

  constructor(host: string, address: string) {
    const kind = classifyAddress(address);
    super(`${host} resolves to ${address}, ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} address`);
    this.name = 'NonPublicAddressError';
    this.host = host;
    this.address = address;
  }
}

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * Makes one GET request over HTTPS. Every address the host resolves to is checked before the
 * connection, and the connection goes to a checked address (the resolver result is handed to the
 * socket), so a second DNS answer cannot swap in a private address. Bodies are decompressed and
 * capped at `maxBytes` after decompression. Redirects are returned, not followed.
 */
export async function requestPage(options: RequestPageOptions): Promise<PageResponse> {
  const host = options.url.hostname.replace(/^\[|\]$/g, '');
  const allowed = isHostAllowed(host, options.allowPrivateHosts);
  if (isIP(host) !== 0 && !allowed && classifyAddress(host) !== 'public') {
    throw new NonPublicAddressError(host, host);
  }
  const { request } = await import('node:https');
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = request({
      protocol: 'https:',
      hostname: host,
      port: options.url.port === '' ? 443 : Number(options.url.port),
      path: `${options.url.pathname}${options.url.search}`,
      method: 'GET',
      headers: {
        'user-agent': options.userAgent,
        accept: 'text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.8',
        'accept-encoding': 'gzip, deflate, br',
      },
      lookup: checkedLookup({ allowPrivate: allowed, resolve: options.resolveHost ?? systemResolve }),
      // A `ca` option replaces Node's bundled roots, so the extra ones are added to them.
      ...(options.ca === undefined
        ? {}
        : { ca: [...rootCertificates, ...(typeof options.ca === 'string' ? [options.ca] : options.ca)] }),
      agent: false,
      signal: options.signal,
    });
    outgoing.once('response', resolve);
    outgoing.once('error', reject);
    outgoing.end();
  });

  const status = response.statusCode ?? 0;
  const header = (name: string) => {
    const value = response.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const statusText = response.statusMessage ?? '';
  if (REDIRECT_STATUSES.has(status)) {
    response.resume();
    const location = header('location');
    return { status, statusText, contentType: undefined, location, body: Buffer.alloc(0), truncated: false };
  }
  const decoded = decode(response, header('content-encoding'));
  const { body, truncated } = await readCapped(decoded, options.maxBytes, () => response.destroy());
  return { status, statusText, contentType: header('content-type'), location: undefined, body, truncated };
}

/**
 * The socket's resolver: resolves once, refuses the host if any of its addresses is not public,
 * and hands the socket exactly the addresses it checked.
 */
function checkedLookup(options: { allowPrivate: boolean; resolve: ResolveHost }): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    const family =
      lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 'IPv6' ? 6 : (lookupOptions.family ?? 0);
    options
      .resolve(hostname)
      .then((found) => {
        if (!options.allowPrivate) {
          const refused = found.find((entry) => classifyAddress(entry.address) !== 'public');
          if (refused) throw new NonPublicAddressError(hostname, refused.address);
        }
        const usable = family === 0 ? found : found.filter((entry) => entry.family === family);
        const first = usable[0];
        if (!first) {
          throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
        }
        if (lookupOptions.all)
          callback(
            null,
            usable.map((entry) => ({ address: entry.address, family: entry.family })),
          );
        else callback(null, first.address, first.family);
      })
      .catch((error: unknown) => {
        callback(error instanceof Error ? error : new Error(String(error)), '', 0);
      });
  };
}

function decode(response: IncomingMessage, encoding: string | undefined): Readable {
  const decoder = decoderFor(encoding);
  if (!decoder) return response;
  // `pipe` does not forward errors: a connection reset mid-body must end the read, not stall it.
  response.once('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

function decoderFor(encoding: string | undefined): Transform | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

async function readCapped(
  stream: Readable,
  maxBytes: number,
  stop: () => void,
): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } finally {
    if (truncated) {
      stream.destroy();
      stop();
    }
  }
  return { body: Buffer.concat(chunks), truncated };
}
