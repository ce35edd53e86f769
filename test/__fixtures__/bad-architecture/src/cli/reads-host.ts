import { homedir } from 'node:os';

export const host = { env: process.env, cwd: process.cwd(), homeDir: homedir() };
