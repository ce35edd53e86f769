#!/usr/bin/env node
import { homedir } from 'node:os';
import { main } from './main.js';
import type { CommandIo } from './headless.js';

const io: CommandIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
  homeDir: homedir(),
};
main(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
    // Leave once output is flushed, even if a library left a handle open.
    process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
  },
  (error: unknown) => {
    process.stderr.write(`toolplane: ${String(error)}\n`);
    process.exit(1);
  },
);
