export { createBubblewrapSandbox, type BubblewrapSandboxOptions } from './bubblewrap-sandbox.js';
export { probeBubblewrap, type BubblewrapProbe } from './probe-bubblewrap.js';
export { bwrapArguments, type BwrapArguments, type BwrapArgumentsOptions, type PathKind } from './bwrap-arguments.js';
export { seccompFilter, seccompSupported } from './seccomp-filter.js';
export { describeProfile } from './describe-profile.js';
export { runSandboxed, bubblewrapVersion, type SandboxedRun } from './run-sandboxed.js';
