import fc from 'fast-check';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  createEncodingCache,
  elementsOf,
  preparedBodyFetch,
  preparedBodyFetchOptions,
  preparedJsonBody,
  type PreparedBody,
} from './prepared-body.js';

const encoder = new TextEncoder();
const bytes = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value));

function text(body: PreparedBody): string {
  const all = Buffer.concat(body.chunks.map((chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length)));
  expect(all.length).toBe(body.byteLength);
  return all.toString('utf8');
}

describe('preparedJsonBody', () => {
  it('is byte for byte what JSON.stringify gives, for any fields and elements', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.array(fc.jsonValue()),
        fc.array(fc.string({ minLength: 0, maxLength: 9000, unit: 'grapheme' }), { maxLength: 6 }),
        (fields, elements, large) => {
          const all = [...elements, ...large];
          const params = { first: 1, ...fields, items: [] as unknown[], last: 'x' };
          const body = preparedJsonBody(params, { items: all.map(bytes) });
          expect(text(body)).toBe(JSON.stringify({ ...params, items: all }));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('leaves out undefined fields, skips empty elements and keeps lone surrogates escaped', () => {
    const body = preparedJsonBody(
      { a: undefined, messages: [], b: 'é\ud800' },
      { messages: [bytes({ x: 1 }), new Uint8Array(0), elementsOf(bytes([])), bytes('✓')] },
    );
    expect(text(body)).toBe(JSON.stringify({ messages: [{ x: 1 }, '✓'], b: 'é\ud800' }));
  });

  it('passes large pieces through without copying them', () => {
    const large = bytes('z'.repeat(50_000));
    const body = preparedJsonBody({ messages: [] }, { messages: [large, bytes(1), large] });
    expect(body.chunks.filter((chunk) => chunk === large)).toHaveLength(2);
  });
});

describe('createEncodingCache', () => {
  it('encodes each object once, and an array value as the elements it stands for', () => {
    let calls = 0;
    const cache = createEncodingCache((value: { n: number }) => {
      calls += 1;
      return [value, value.n];
    });
    const one = { n: 1 };
    expect(cache.bytesOf(one)).toBe(cache.bytesOf(one));
    expect(calls).toBe(1);
    expect(Buffer.from(elementsOf(cache.bytesOf({ n: 2 }))).toString()).toBe('{"n":2},2');
    expect(calls).toBe(2);
  });
});

type Received = { readonly headers: IncomingHttpHeaders; readonly body: string };

async function withServer(run: (url: string, received: Received[]) => Promise<void>): Promise<void> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, received);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('preparedBodyFetch', () => {
  it('sends the prepared bytes with their length in place of the body it was given', async () => {
    await withServer(async (url, received) => {
      const body = preparedJsonBody({ model: 'm', messages: [] }, { messages: [bytes('a'.repeat(70_000)), bytes(2)] });
      const init = { method: 'POST', body: '{"model":"m","messages":[]}', ...preparedBodyFetchOptions(body) };
      await (await preparedBodyFetch(url, init)).text();
      await (await preparedBodyFetch(url, init)).text();
      await (await preparedBodyFetch(url, { method: 'POST', body: 'plain' })).text();
      expect(received.map((request) => request.body)).toEqual([text(body), text(body), 'plain']);
      expect(received[0]?.headers['content-length']).toBe(String(body.byteLength));
      expect(received[0]?.headers['transfer-encoding']).toBeUndefined();
    });
  });
});
