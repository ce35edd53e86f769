/**
 * A JSON request body as UTF-8 bytes assembled from pieces encoded earlier: sent as it is, never
 * serialised again. `chunks` concatenated are the body; `byteLength` is their total.
 */
export type PreparedBody = {
  readonly chunks: readonly Uint8Array[];
  readonly byteLength: number;
};

/** Encodes values to JSON bytes once each, while the value object lives (it must not change after). */
export type EncodingCache<T extends object> = {
  /** The bytes of `value`, from the cache when this object was encoded before. */
  readonly bytesOf: (value: T) => Uint8Array;
};

/**
 * An {@link EncodingCache} whose bytes are `JSON.stringify(toWire(value))` in UTF-8. `toWire` may
 * return an array to stand for several elements of the enclosing array (or none): their encodings
 * are joined with commas, so one value can map to zero or more wire elements.
 */
export function createEncodingCache<T extends object>(toWire: (value: T) => unknown): EncodingCache<T> {
  const cache = new WeakMap<T, Uint8Array>();
  return {
    bytesOf(value) {
      let bytes = cache.get(value);
      if (bytes === undefined) {
        bytes = encodeText(JSON.stringify(toWire(value)));
        cache.set(value, bytes);
      }
      return bytes;
    },
  };
}

/** The encodings of a value that stands for several array elements: `[a,b]` → `a,b`, `[]` → nothing. */
export function elementsOf(bytes: Uint8Array): Uint8Array {
  // `[` and `]` are one byte each; an empty array leaves an empty piece, which the body skips.
  return bytes.subarray(1, bytes.length - 1);
}

const encoder = new TextEncoder();

function encodeText(text: string): Uint8Array {
  return encoder.encode(text);
}

// Pieces smaller than this are copied together (into chunks of about this size) so the stream
// does not carry thousands of commas; larger ones are sent as they are.
const COALESCE_BYTES = 4 * 1024;

/**
 * The body `JSON.stringify(fields)` would give, byte for byte, with each field named in `arrays`
 * written as a JSON array of the given pre-encoded elements (empty elements are skipped). Field
 * order is `fields`' own; a field whose value is `undefined` is left out, as JSON does.
 */
export function preparedJsonBody(
  fields: object,
  arrays: Readonly<Record<string, readonly Uint8Array[]>>,
): PreparedBody {
  const chunks: Uint8Array[] = [];
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let byteLength = 0;
  const flush = (): void => {
    if (pending.length === 0) return;
    chunks.push(pending.length === 1 ? pending[0]! : concat(pending, pendingBytes));
    pending = [];
    pendingBytes = 0;
  };
  const add = (piece: Uint8Array): void => {
    byteLength += piece.length;
    if (piece.length >= COALESCE_BYTES) {
      flush();
      chunks.push(piece);
      return;
    }
    pending.push(piece);
    pendingBytes += piece.length;
    if (pendingBytes >= COALESCE_BYTES) flush();
  };
  // JSON text between the pre-encoded arrays: `{` and the plain fields before the first one, and so on.
  let text = '{';
  let separator = '';
  for (const [key, value] of Object.entries(fields) as [string, unknown][]) {
    // Own keys only: a field named like an Object.prototype member is data.
    const elements = Object.hasOwn(arrays, key) ? arrays[key] : undefined;
    if (elements === undefined) {
      if (value === undefined) continue;
      text += `${separator}${JSON.stringify(key)}:${JSON.stringify(value)}`;
      separator = ',';
      continue;
    }
    add(encodeText(`${text}${separator}${JSON.stringify(key)}:[`));
    let first = true;
    for (const element of elements) {
      if (element.length === 0) continue;
      if (!first) add(COMMA);
      add(element);
      first = false;
    }
    text = ']';
    separator = ',';
  }
  add(encodeText(`${text}}`));
  flush();
  return { chunks, byteLength };
}

const COMMA = encodeText(',');

function concat(pieces: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let offset = 0;
  for (const piece of pieces) {
    out.set(piece, offset);
    offset += piece.length;
  }
  return out;
}

/**
 * A stream of the body's chunks, for a `fetch` body (with `duplex: 'half'`): the chunks are handed
 * over as they are, not copied, and the stream is new on every call, so a retry sends it again.
 */
export function bodyStream(body: PreparedBody): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of body.chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

const PREPARED_BODY = Symbol('toolplane.preparedBody');

type WithPreparedBody = RequestInit & { readonly [PREPARED_BODY]?: PreparedBody };

/**
 * The per-request `fetchOptions` for the official SDKs (`@anthropic-ai/sdk`, `openai`) that make
 * {@link preparedBodyFetch} send `body` in place of the one the SDK serialised from the params
 * (pass params whose large fields are empty). The SDKs hand `fetchOptions` to `fetch` as they are;
 * they still build the URL, headers, auth, timeout and abort, and parse the response, its errors
 * and its stream.
 */
export function preparedBodyFetchOptions(body: PreparedBody): Record<string, never> {
  // A symbol key: no other layer reads it, and the SDKs' object spreads carry it to `fetch`.
  return { [PREPARED_BODY]: body } as unknown as Record<string, never>;
}

/**
 * A `fetch` for the SDK clients: a request made with {@link preparedBodyFetchOptions} goes out with
 * the prepared bytes as its body (and their `content-length`); any other request is passed on
 * unchanged. The global `fetch` is looked up at each call.
 */
export const preparedBodyFetch: typeof fetch = (input, init) => {
  const body = (init as WithPreparedBody | undefined)?.[PREPARED_BODY];
  if (body === undefined || init === undefined) return globalThis.fetch(input, init);
  const headers = new Headers(init.headers);
  headers.set('content-length', String(body.byteLength));
  const prepared: RequestInit & { duplex: 'half' } = { ...init, headers, body: bodyStream(body), duplex: 'half' };
  return globalThis.fetch(input, prepared);
};
