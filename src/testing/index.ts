/** Fakes and sample tools that ship with the library, for tests of agents built on toolplane. */
export { createFakeApprover, createFakeHookGate, createFakePermissionGate } from './fake-gates.js';
export { echoTool, failTool, noopTool, sampleTools, sleepTool, weatherTool } from './sample-tools.js';
