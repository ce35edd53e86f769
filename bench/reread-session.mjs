// What a long session of re-reads costs in input (issue: a turn's cost independent of the
// session's length): 30 turns against a mock Anthropic server through the real SDK, each turn ten
// parallel Reads of 28 KB files — new files in turns 1–10, the same files read again from turn 11
// on. Prints the request body size per turn and the total the session sent, for this build and,
// when TOOLPLANE_BASELINE_DIST names another build's dist folder, for that one in the same run.
// Run after `npm run build`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const TURNS = 30;
const READS = 10;
const FRESH_TURNS = 10;

async function session(dist, folder, files) {
  const load = (path) => import(pathToFileURL(join(dist, path)).href);
  const { createAgentSession, createPermissionEngine, createPermissionModeStore, createSessionStore } =
    await load('index.js');
  const { createAnthropicProvider } = await load('providers/index.js');
  const { startMockAnthropicServer } = await load('testing/index.js');
  const { createReadTool } = await load('tools/index.js');
  const replies = [];
  for (let turn = 0; turn < TURNS; turn += 1) {
    const batch = files.slice((turn % FRESH_TURNS) * READS, (turn % FRESH_TURNS) * READS + READS);
    replies.push({
      content: batch.map((file, i) => ({
        type: 'tool_use',
        id: `toolu_${turn}_${i}`,
        name: 'Read',
        input: { file_path: file },
      })),
    });
  }
  replies.push({ content: [{ type: 'text', text: 'done' }] });
  const server = await startMockAnthropicServer({ replies });
  const modes = createPermissionModeStore('default');
  const cwd = folder;
  try {
    const agent = await createAgentSession({
      provider: createAnthropicProvider({
        apiKey: 'bench',
        baseURL: server.baseURL,
        retry: { maxRetries: 0 },
        env: {},
      }),
      system: 'bench',
      cwd,
      env: {},
      homeDir: folder,
      sessions: createSessionStore({ configDir: join(folder, `.sessions-${Math.random()}`), cwd }),
      tools: [createReadTool()],
      permissions: createPermissionEngine({ rules: [], modeStore: modes, cwd, homeDir: folder }),
      modes,
      contextWindowTokens: 100_000_000,
    });
    for await (const _event of agent.submit('read the files', new AbortController().signal)) void _event;
    await agent.close();
    const sizes = server.requests.map((request) => Buffer.byteLength(JSON.stringify(request.body)));
    return {
      requests: sizes.length,
      first_request_bytes: sizes[0],
      turn_10_request_bytes: sizes[FRESH_TURNS],
      last_request_bytes: sizes[sizes.length - 1],
      total_input_mib: Number((sizes.reduce((sum, size) => sum + size, 0) / 2 ** 20).toFixed(1)),
      input_bytes_per_turn_after_turn_10: Math.round(
        (sizes[sizes.length - 1] - sizes[FRESH_TURNS]) / (sizes.length - 1 - FRESH_TURNS),
      ),
    };
  } finally {
    await server.close();
  }
}

export async function run() {
  const folder = await mkdtemp(join(tmpdir(), 'toolplane-bench-reread-'));
  try {
    const files = [];
    for (let i = 0; i < READS * FRESH_TURNS; i += 1) {
      const path = join(folder, `file-${i}.txt`);
      await writeFile(path, `${'y'.repeat(69)} ${i}\n`.repeat(400));
      files.push(path);
    }
    const here = new URL('../dist/', import.meta.url).pathname;
    const result = { file_kib: 28, current: await session(here, folder, files) };
    const baseline = process.env.TOOLPLANE_BASELINE_DIST;
    if (baseline) {
      result.baseline = await session(baseline, folder, files);
      result.last_request_ratio = Number(
        (result.current.last_request_bytes / result.baseline.last_request_bytes).toFixed(3),
      );
      result.total_input_ratio = Number((result.current.total_input_mib / result.baseline.total_input_mib).toFixed(3));
    }
    return result;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(JSON.stringify(await run(), null, 2));
