export { createBashTool, bashInputSchema, type BashInput, type BashToolOptions } from './bash-tool.js';
export { mapBashResult, type BashOutput } from './map-bash-result.js';
export { BASH_PROMPT, DEFAULT_BASH_TIMEOUT_MS, MAX_BASH_TIMEOUT_MS } from './bash-prompt.js';
export { SHELL_STATE, createShellState, type ShellState } from './shell-state.js';
export { SPILL_FOLDER, createSpillFolder, type SpillFolder, type CreateSpillFolderOptions } from './spill-folder.js';
export { killProcessGroup, type KillProcessGroupOptions } from './kill-process-group.js';
export type { BashProgressData } from './progress-reporter.js';
