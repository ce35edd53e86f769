import { spawn } from 'node:child_process';

export function run(): void {
  console.log('spawning');
  spawn('ls');
}
