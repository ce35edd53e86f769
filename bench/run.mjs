// `npm run bench`: runs every benchmark module in this folder (or those named on the command
// line, e.g. `npm run bench -- plane loop`) and prints their figures as one JSON object, with the
// machine they ran on. Benchmarks print figures; nothing here asserts on them.
import { readdirSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

const wanted = process.argv.slice(2);
const folder = new URL('./', import.meta.url);
const names = readdirSync(folder)
  .filter((name) => name.endsWith('.mjs') && name !== 'run.mjs')
  .map((name) => name.slice(0, -4))
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();

const results = {};
for (const name of names) {
  const started = performance.now();
  process.stderr.write(`bench: ${name}…\n`);
  try {
    const module = await import(new URL(`./${name}.mjs`, folder));
    results[name] = await module.run();
  } catch (error) {
    results[name] = { error: error instanceof Error ? error.message : String(error) };
  }
  process.stderr.write(`bench: ${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memory_gib: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  load_average_1m: Number(loadavg()[0].toFixed(2)),
  date: new Date().toISOString(),
};
process.stdout.write(`${JSON.stringify({ machine, results }, null, 2)}\n`);
