import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

// An OTLP/HTTP receiver on 127.0.0.1 that decodes what it gets, JSON or protobuf, into one plain
// shape. The protobuf side is a wire-format reader walking the field numbers of the
// opentelemetry-proto messages (collector/{trace,metrics,logs}/v1, common/v1), written for the test.

export type Value = string | number | boolean;
export type ReceivedSpan = {
  readonly name: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly attributes: Record<string, Value>;
  readonly error: boolean;
};
export type ReceivedLog = {
  readonly eventName: string;
  readonly body: string;
  readonly attributes: Record<string, Value>;
};
export type ReceivedRequest = {
  readonly path: string;
  readonly contentType: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
};

export type OtlpReceiver = {
  readonly endpoint: string;
  readonly requests: ReceivedRequest[];
  spans(): ReceivedSpan[];
  /** Metric names with the sum of their data points (counters) or of their counts (histograms). */
  metrics(): Map<string, number>;
  logs(): ReceivedLog[];
  /** Resource attributes of every request. */
  resources(): Record<string, Value>[];
  close(): Promise<void>;
};

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const contentType = String(request.headers['content-type'] ?? '');
      requests.push({ path: request.url ?? '', contentType, headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(200, { 'content-type': contentType.includes('json') ? 'application/json' : contentType });
      response.end(contentType.includes('json') ? '{}' : Buffer.alloc(0));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const decoded = () => requests.map(decodeRequest);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    spans: () => decoded().flatMap((request) => request.spans),
    logs: () => decoded().flatMap((request) => request.logs),
    resources: () => decoded().flatMap((request) => request.resources),
    metrics() {
      const totals = new Map<string, number>();
      for (const request of decoded())
        for (const [name, value] of request.metrics) totals.set(name, (totals.get(name) ?? 0) + value);
      return totals;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

type Decoded = {
  spans: ReceivedSpan[];
  logs: ReceivedLog[];
  metrics: [string, number][];
  resources: Record<string, Value>[];
};

function decodeRequest(request: ReceivedRequest): Decoded {
  return request.contentType.includes('json')
    ? decodeJson(JSON.parse(request.body.toString('utf8')) as JsonRequest)
    : decodeProtobuf(request.path, request.body);
}

// ---- JSON (OTLP/HTTP JSON encoding: lowerCamelCase fields, ids in hex, int64 as strings) ----

type JsonValue = { stringValue?: string; boolValue?: boolean; intValue?: string | number; doubleValue?: number };
type JsonAttributes = { key: string; value: JsonValue }[] | undefined;
type JsonPoint = { asInt?: string | number; asDouble?: number; count?: string | number };
type JsonRequest = {
  resourceSpans?: {
    resource?: { attributes?: JsonAttributes };
    scopeSpans?: {
      spans?: {
        name: string;
        spanId: string;
        parentSpanId?: string;
        attributes?: JsonAttributes;
        status?: { code?: number };
      }[];
    }[];
  }[];
  resourceMetrics?: {
    resource?: { attributes?: JsonAttributes };
    scopeMetrics?: {
      metrics?: {
        name: string;
        sum?: { dataPoints?: JsonPoint[] };
        histogram?: { dataPoints?: JsonPoint[] };
      }[];
    }[];
  }[];
  resourceLogs?: {
    resource?: { attributes?: JsonAttributes };
    scopeLogs?: {
      logRecords?: { eventName?: string; body?: JsonValue; attributes?: JsonAttributes }[];
    }[];
  }[];
};

function jsonValue(value: JsonValue): Value {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.doubleValue ?? '';
}

function jsonAttributes(list: JsonAttributes): Record<string, Value> {
  return Object.fromEntries((list ?? []).map((pair) => [pair.key, jsonValue(pair.value)]));
}

function decodeJson(body: JsonRequest): Decoded {
  const out: Decoded = { spans: [], logs: [], metrics: [], resources: [] };
  for (const resource of body.resourceSpans ?? []) {
    out.resources.push(jsonAttributes(resource.resource?.attributes));
    for (const scope of resource.scopeSpans ?? [])
      for (const span of scope.spans ?? [])
        out.spans.push({
          name: span.name,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? '',
          attributes: jsonAttributes(span.attributes),
          error: span.status?.code === 2,
        });
  }
  for (const resource of body.resourceMetrics ?? []) {
    out.resources.push(jsonAttributes(resource.resource?.attributes));
    for (const scope of resource.scopeMetrics ?? [])
      for (const metric of scope.metrics ?? []) {
        const sum = (metric.sum?.dataPoints ?? []).reduce(
          (total, point) => total + Number(point.asInt ?? point.asDouble ?? 0),
          0,
        );
        const count = (metric.histogram?.dataPoints ?? []).reduce(
          (total, point) => total + Number(point.count ?? 0),
          0,
        );
        out.metrics.push([metric.name, metric.histogram ? count : sum]);
      }
  }
  for (const resource of body.resourceLogs ?? []) {
    out.resources.push(jsonAttributes(resource.resource?.attributes));
    for (const scope of resource.scopeLogs ?? [])
      for (const record of scope.logRecords ?? [])
        out.logs.push({
          eventName: record.eventName ?? '',
          body: String(record.body ? jsonValue(record.body) : ''),
          attributes: jsonAttributes(record.attributes),
        });
  }
  return out;
}

// ---- protobuf (wire format: varint, 64-bit, length-delimited, 32-bit) ----

type Field = { readonly number: number; readonly varint?: bigint; readonly bytes?: Buffer; readonly fixed?: Buffer };

function readVarint(buffer: Buffer, at: { offset: number }): bigint {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    const byte = buffer[at.offset++];
    if (byte === undefined) throw new Error('protobuf: truncated varint');
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return result;
    shift += 7n;
  }
}

function fields(buffer: Buffer): Field[] {
  const out: Field[] = [];
  const at = { offset: 0 };
  while (at.offset < buffer.length) {
    const key = Number(readVarint(buffer, at));
    const number = key >>> 3;
    switch (key & 7) {
      case 0:
        out.push({ number, varint: readVarint(buffer, at) });
        break;
      case 1:
        out.push({ number, fixed: buffer.subarray(at.offset, (at.offset += 8)) });
        break;
      case 2: {
        const length = Number(readVarint(buffer, at));
        out.push({ number, bytes: buffer.subarray(at.offset, (at.offset += length)) });
        break;
      }
      case 5:
        out.push({ number, fixed: buffer.subarray(at.offset, (at.offset += 4)) });
        break;
      default:
        throw new Error(`protobuf: wire type ${key & 7} is not expected here`);
    }
  }
  return out;
}

const all = (buffer: Buffer, number: number): Buffer[] =>
  fields(buffer).flatMap((field) => (field.number === number && field.bytes ? [field.bytes] : []));
const first = (buffer: Buffer, number: number): Buffer | undefined => all(buffer, number)[0];
const text = (buffer: Buffer | undefined): string => (buffer === undefined ? '' : buffer.toString('utf8'));

/** AnyValue: 1 string, 2 bool, 3 int64, 4 double. */
function anyValue(buffer: Buffer): Value {
  for (const field of fields(buffer)) {
    if (field.number === 1 && field.bytes) return field.bytes.toString('utf8');
    if (field.number === 2 && field.varint !== undefined) return field.varint !== 0n;
    if (field.number === 3 && field.varint !== undefined) return Number(BigInt.asIntN(64, field.varint));
    if (field.number === 4 && field.fixed) return field.fixed.readDoubleLE(0);
  }
  return '';
}

/** Repeated KeyValue (1 key, 2 value) at `number`. */
function attributes(buffer: Buffer, number: number): Record<string, Value> {
  return Object.fromEntries(
    all(buffer, number).map((pair) => {
      const value = first(pair, 2);
      return [text(first(pair, 1)), value === undefined ? '' : anyValue(value)];
    }),
  );
}

/** A NumberDataPoint's value: 4 as_double (fixed64), 6 as_int (sfixed64). */
function pointValue(point: Buffer): number {
  for (const field of fields(point)) {
    if (field.number === 4 && field.fixed) return field.fixed.readDoubleLE(0);
    if (field.number === 6 && field.fixed) return Number(field.fixed.readBigInt64LE(0));
  }
  return 0;
}

/** A HistogramDataPoint's count: 4 (fixed64). */
function pointCount(point: Buffer): number {
  const field = fields(point).find((candidate) => candidate.number === 4 && candidate.fixed);
  return field?.fixed ? Number(field.fixed.readBigUInt64LE(0)) : 0;
}

function decodeProtobuf(path: string, body: Buffer): Decoded {
  const out: Decoded = { spans: [], logs: [], metrics: [], resources: [] };
  for (const resource of all(body, 1)) {
    const resourceMessage = first(resource, 1);
    out.resources.push(resourceMessage ? attributes(resourceMessage, 1) : {});
    for (const scope of all(resource, 2)) {
      if (path.endsWith('/v1/traces'))
        // Span: 2 span_id, 4 parent_span_id, 5 name, 9 attributes, 15 status (3 code).
        for (const span of all(scope, 2)) {
          const status = first(span, 15);
          const code = status ? fields(status).find((field) => field.number === 3)?.varint : undefined;
          out.spans.push({
            name: text(first(span, 5)),
            spanId: (first(span, 2) ?? Buffer.alloc(0)).toString('hex'),
            parentSpanId: (first(span, 4) ?? Buffer.alloc(0)).toString('hex'),
            attributes: attributes(span, 9),
            error: code === 2n,
          });
        }
      else if (path.endsWith('/v1/metrics'))
        // Metric: 1 name, 7 sum (1 data_points), 9 histogram (1 data_points).
        for (const metric of all(scope, 2)) {
          const sum = first(metric, 7);
          const histogram = first(metric, 9);
          const value = histogram
            ? all(histogram, 1).reduce((total, point) => total + pointCount(point), 0)
            : all(sum ?? Buffer.alloc(0), 1).reduce((total, point) => total + pointValue(point), 0);
          out.metrics.push([text(first(metric, 1)), value]);
        }
      else if (path.endsWith('/v1/logs'))
        // LogRecord: 5 body, 6 attributes, 12 event_name.
        for (const record of all(scope, 2)) {
          const bodyValue = first(record, 5);
          out.logs.push({
            eventName: text(first(record, 12)),
            body: String(bodyValue ? anyValue(bodyValue) : ''),
            attributes: attributes(record, 6),
          });
        }
    }
  }
  return out;
}
