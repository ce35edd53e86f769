export * from './tool.js';
export * from './define-tool.js';
export * from './permission.js';
export * from './services.js';
export * from './gates.js';
export * from './provider.js';
export * from './hook-config.js';
export * from './scrub-env.js';
