import { parseArgs } from 'node:util';
import { describeError } from '../../errors/toolplane-error.js';
import { buildSearchIndex } from '../../search/build-search-index.js';
import { searchTools } from '../../search/search-tools.js';
import type { ToolDescriptor } from '../../search/tool-descriptor.js';

/** What the `tool-search` command reads and writes. */
export type ToolSearchCommandIo = {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Reads a whole UTF-8 file; rejects when it cannot (missing file, …). */
  readonly readFile: (path: string, options: { readonly signal: AbortSignal }) => Promise<string>;
  readonly signal?: AbortSignal;
};

const USAGE =
  'Usage: toolplane tool-search --catalog FILE.jsonl (--query TEXT | --queries FILE.jsonl) [--max-results N]';

/** Thrown inside the command for a user error: printed as one line, exit code 2. */
class CommandInputError extends Error {}

type QueryLine = { readonly id: string | number | null; readonly query: string };

/**
 * `toolplane tool-search`: ranks a catalog in the benchmark's `tools.jsonl` format (`id` is the
 * pool name; `name`, `server`, `description`, `input_schema` are used by the ranking) with exactly
 * ToolSearch's ranking, and prints one JSON line per query: `{"id": <query id or null>,
 * "results": [tool ids, best first]}`. `--queries` takes lines with `id` and `query`.
 * Returns the exit code: 0 on success, 2 for bad arguments or input (with a message on stderr).
 */
export async function runToolSearchCommand(args: readonly string[], io: ToolSearchCommandIo): Promise<number> {
  const signal = io.signal ?? new AbortController().signal;
  try {
    const options = parseOptions(args);
    const catalogText = await readInput(io, options.catalog, signal, 'catalog');
    const descriptors = parseCatalog(catalogText, options.catalog);
    const queries =
      options.queries === undefined
        ? [{ id: null, query: options.query as string }]
        : parseQueries(await readInput(io, options.queries, signal, 'queries'), options.queries);
    const index = buildSearchIndex(descriptors);
    for (const line of queries) {
      signal.throwIfAborted();
      const { matches } = searchTools(index, line.query, { maxResults: options.maxResults });
      io.stdout(`${JSON.stringify({ id: line.id, results: matches })}\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof CommandInputError) {
      io.stderr(`tool-search: ${error.message}\n`);
      return 2;
    }
    if (signal.aborted) {
      io.stderr('tool-search: aborted\n');
      return 130;
    }
    io.stderr(`tool-search: ${describeError(error)}\n`);
    return 1;
  }
}

function parseOptions(args: readonly string[]): {
  catalog: string;
  query: string | undefined;
  queries: string | undefined;
  maxResults: number;
} {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        catalog: { type: 'string' },
        query: { type: 'string' },
        queries: { type: 'string' },
        'max-results': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new CommandInputError(`${describeError(error)}\n${USAGE}`);
  }
  if (values.catalog === undefined) throw new CommandInputError(`--catalog is required.\n${USAGE}`);
  if ((values.query === undefined) === (values.queries === undefined)) {
    throw new CommandInputError(`Give exactly one of --query and --queries.\n${USAGE}`);
  }
  let maxResults = 5;
  if (values['max-results'] !== undefined) {
    maxResults = Number(values['max-results']);
    if (!Number.isInteger(maxResults) || maxResults < 1) {
      throw new CommandInputError(
        `--max-results must be a positive integer, not ${JSON.stringify(values['max-results'])}.`,
      );
    }
  }
  return { catalog: values.catalog, query: values.query, queries: values.queries, maxResults };
}

async function readInput(io: ToolSearchCommandIo, path: string, signal: AbortSignal, what: string): Promise<string> {
  try {
    return await io.readFile(path, { signal });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new CommandInputError(`cannot read the ${what} file ${path}: ${describeError(error)}`);
  }
}

/** Parses JSON lines, skipping blank ones; a line that is not a JSON object is an error naming it. */
function* jsonLines(text: string, path: string): Generator<{ record: Record<string, unknown>; line: number }> {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = (lines[i] as string).trim();
    if (raw === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new CommandInputError(`${path}:${i + 1}: not valid JSON (${describeError(error)}).`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new CommandInputError(`${path}:${i + 1}: expected a JSON object.`);
    }
    yield { record: value as Record<string, unknown>, line: i + 1 };
  }
}

function parseCatalog(text: string, path: string): ToolDescriptor[] {
  const descriptors: ToolDescriptor[] = [];
  for (const { record, line } of jsonLines(text, path)) {
    const id = record['id'];
    if (typeof id !== 'string' || id === '')
      throw new CommandInputError(`${path}:${line}: "id" must be a non-empty string.`);
    const description = record['description'];
    const schema = record['input_schema'];
    const server = record['server'];
    const name = record['name'];
    descriptors.push({
      name: id,
      description: typeof description === 'string' ? description : '',
      inputSchema:
        typeof schema === 'object' && schema !== null && !Array.isArray(schema)
          ? (schema as Record<string, unknown>)
          : undefined,
      server: typeof server === 'string' && server !== '' ? server : undefined,
      toolName: typeof name === 'string' && name !== '' ? name : undefined,
    });
  }
  if (descriptors.length === 0) throw new CommandInputError(`${path}: the catalog has no tools.`);
  return descriptors;
}

function parseQueries(text: string, path: string): QueryLine[] {
  const queries: QueryLine[] = [];
  for (const { record, line } of jsonLines(text, path)) {
    const query = record['query'];
    if (typeof query !== 'string') throw new CommandInputError(`${path}:${line}: "query" must be a string.`);
    const id = record['id'];
    queries.push({ id: typeof id === 'string' || typeof id === 'number' ? id : null, query });
  }
  return queries;
}
