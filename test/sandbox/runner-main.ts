import { runJobs, type SandboxJob } from './sandbox-runner.js';

/** Entry of the bundle run as another user: jobs as JSON on stdin, outcomes as JSON on stdout. */
async function main(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const jobs = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SandboxJob[];
  process.stdout.write(JSON.stringify(await runJobs(jobs)));
}

void main();
