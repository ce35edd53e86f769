import { main } from '../cli/main.js';
export const x = main;
