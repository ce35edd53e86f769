// Prints the bytes of a request's tools[] built from the sample pool, from the built package.
// Run twice in separate processes by to-api-tool.test.ts to prove byte-stability.
import { assembleToolPool, createApiToolCache } from '../../../dist/index.js';
import { sampleTools } from '../../../dist/testing/index.js';

const pool = assembleToolPool({ builtins: sampleTools.filter((tool) => tool.origin === 'builtin'), external: sampleTools.filter((tool) => tool.origin === 'external') });
const cache = createApiToolCache();
process.stdout.write(JSON.stringify({ tools: cache.toApiTools(pool.tools, new Set(['mcp__sample__get_weather'])) }));
