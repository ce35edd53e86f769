/** toolplane: the tool control plane for LLM agents. */
export * from './contract/index.js';
export * from './messages/index.js';
export * from './errors/index.js';
