import { decide } from '../permissions/engine.js';
export const leaf = decide;
