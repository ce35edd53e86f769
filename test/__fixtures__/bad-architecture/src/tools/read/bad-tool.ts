import { run } from '../../execution/runner.js';
import type { Thing } from '../../contract/ok.js';
export const tool = run;
export type T = Thing;
