import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToolSearchCommand, type ToolSearchCommandIo } from './tool-search.js';

let folder: string;
let catalog: string;

const tools = [
  {
    id: 'mcp__slack__send_message',
    name: 'send_message',
    server: 'slack',
    description: 'Send a message to a Slack channel.',
    input_schema: { type: 'object', properties: { channel: { type: 'string' } } },
    source: 'x',
  },
  {
    id: 'mcp__slack__list_channels',
    name: 'list_channels',
    server: 'slack',
    description: 'List the channels of the workspace.',
    input_schema: { type: 'object' },
  },
  {
    id: 'bfcl__get_weather',
    name: 'get_weather',
    server: '',
    description: 'Current weather for a city.',
    input_schema: { type: 'object', properties: { city: { type: 'string', description: 'City name' } } },
  },
  { id: 'convertUnits', name: 'convertUnits', description: 'Convert between units.' },
];

async function run(args: string[], signal?: AbortSignal) {
  let stdout = '';
  let stderr = '';
  const io: ToolSearchCommandIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    readFile: (path, options) => readFile(path, { encoding: 'utf8', signal: options.signal }),
    ...(signal && { signal }),
  };
  const code = await runToolSearchCommand(args, io);
  return { code, stdout, stderr };
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'toolplane-tool-search-'));
  catalog = join(folder, 'tools.jsonl');
  await writeFile(catalog, `${tools.map((tool) => JSON.stringify(tool)).join('\n')}\n\n`);
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('toolplane tool-search', () => {
  it('ranks the catalog for one query and prints one JSON line with a null id', async () => {
    const result = await run(['--catalog', catalog, '--query', 'weather in Paris']);
    expect(result).toEqual({ code: 0, stdout: '{"id":null,"results":["bfcl__get_weather"]}\n', stderr: '' });
  });

  it('runs a queries file, keeping each id, with --max-results', async () => {
    const queries = join(folder, 'queries.jsonl');
    await writeFile(
      queries,
      [
        JSON.stringify({ id: 'q1', query: 'mcp__slack', relevant: [] }),
        JSON.stringify({ id: 7, query: 'select:convertUnits' }),
        JSON.stringify({ query: 'nothing matches zebra' }),
      ].join('\n'),
    );
    const result = await run(['--catalog', catalog, '--queries', queries, '--max-results', '1']);
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([
      { id: 'q1', results: ['mcp__slack__send_message'] },
      { id: 7, results: ['convertUnits'] },
      { id: null, results: [] },
    ]);
  });

  it('uses the catalog server and original name in the ranking', async () => {
    const result = await run(['--catalog', catalog, '--query', 'slack', '--max-results', '5']);
    expect(JSON.parse(result.stdout)).toEqual({
      id: null,
      results: ['mcp__slack__send_message', 'mcp__slack__list_channels'],
    });
  });

  it('refuses missing flags, both query flags, unknown flags and a bad --max-results', async () => {
    for (const args of [
      ['--query', 'x'],
      ['--catalog', catalog],
      ['--catalog', catalog, '--query', 'x', '--queries', 'q.jsonl'],
      ['--catalog', catalog, '--query', 'x', '--verbose'],
      ['--catalog', catalog, '--query', 'x', '--max-results', 'ten'],
      ['--catalog', catalog, '--query', 'x', '--max-results', '0'],
    ]) {
      const result = await run(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^tool-search: /);
    }
    expect((await run(['--query', 'x'])).stderr).toContain('--catalog is required.\nUsage: toolplane tool-search');
    expect((await run(['--catalog', catalog, '--query', 'x', '--max-results', '0'])).stderr).toContain(
      '--max-results must be a positive integer, not "0".',
    );
  });

  it('says which file is missing', async () => {
    const missing = join(folder, 'absent.jsonl');
    const result = await run(['--catalog', missing, '--query', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`cannot read the catalog file ${missing}`);
    const queriesMissing = await run(['--catalog', catalog, '--queries', missing]);
    expect(queriesMissing.stderr).toContain(`cannot read the queries file ${missing}`);
  });

  it('names the line of bad JSON, non-objects and missing fields', async () => {
    const cases: [string, string][] = [
      [`${JSON.stringify(tools[0])}\n{"id": "x",\n`, ':2: not valid JSON'],
      ['[1, 2]\n', ':1: expected a JSON object.'],
      ['{"name": "no id"}\n', ':1: "id" must be a non-empty string.'],
      ['\n\n', ': the catalog has no tools.'],
    ];
    for (const [text, message] of cases) {
      const bad = join(folder, 'bad.jsonl');
      await writeFile(bad, text);
      const result = await run(['--catalog', bad, '--query', 'x']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`${bad}${message}`);
    }
    const badQueries = join(folder, 'bad-queries.jsonl');
    await writeFile(badQueries, '{"id": "q1", "query": 3}\n');
    const result = await run(['--catalog', catalog, '--queries', badQueries]);
    expect(result.stderr).toContain(`${badQueries}:1: "query" must be a string.`);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await run(['--catalog', catalog, '--query', 'x'], controller.signal);
    expect(result.code).toBe(130);
    expect(result.stderr).toBe('tool-search: aborted\n');
  });
});
