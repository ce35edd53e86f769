import { homedir } from 'node:os';

export const home = homedir();
export const key = process.env['ANTHROPIC_API_KEY'];
export const folder = process.cwd();
