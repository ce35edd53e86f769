export { assembleToolPool, type AssemblePoolOptions } from './assemble-tool-pool.js';
export type { DroppedTool, ToolPool } from './tool-pool.js';
export { checkToolServices, findMissingServices, type MissingService } from './check-tool-services.js';
