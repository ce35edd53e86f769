/** toolplane: the tool control plane for LLM agents. */
export * from './contract/index.js';
export * from './messages/index.js';
export * from './errors/index.js';
export * from './pool/index.js';
export * from './schema/index.js';
export * from './results/index.js';
export * from './execution/index.js';
