/** Fakes and sample tools that ship with the library, for tests of agents built on toolplane. */
export { createFakeApprover, createFakeHookGate, createFakePermissionGate } from './fake-gates.js';
export { echoTool, failTool, noopTool, sampleTools, sleepTool, weatherTool } from './sample-tools.js';
export { startMockAnthropicServer } from './mock-anthropic-server.js';
export { startMockOpenAIServer, viewOfChatRequest } from './mock-openai-server.js';
export type {
  MockErrorReply,
  MockModelServer,
  MockReply,
  MockServerOptions,
  MockTurnReply,
  RecordedRequest,
} from './mock-model-server.js';
export { scriptedModel, textTurn, toolTurn, toJsonl, type ScriptedToolCall } from './scripted-model.js';
export { createCallContext } from './call-context.js';
export { nextMcpEvent } from './next-mcp-event.js';
export { createFakeSandbox, type FakeSandbox } from './fake-sandbox.js';
