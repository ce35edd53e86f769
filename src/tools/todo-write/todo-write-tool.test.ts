import { describe, expect, it } from 'vitest';
import { createServices, type ServiceRegistry } from '../../contract/services.js';
import type { ToolCallContext } from '../../contract/tool.js';
import { TODO_STORE, createTodoStore, type TodoChange } from './todo-store.js';
import { createTodoWriteTool, todoWriteInputSchema, type TodoWriteInput } from './todo-write-tool.js';
import { createApiToolCache } from '../../schema/to-api-tool.js';

function makeContext(services: ServiceRegistry, agentId = 'main'): ToolCallContext {
  return {
    toolUseId: 'toolu_1',
    signal: new AbortController().signal,
    cwd: '/',
    sessionId: 'session-1',
    agentId,
    permissionMode: 'default',
    services,
    reportProgress: () => undefined,
  };
}

const tool = createTodoWriteTool();

async function write(input: TodoWriteInput, services: ServiceRegistry, agentId = 'main') {
  const context = makeContext(services, agentId);
  const parsed = todoWriteInputSchema.parse(input);
  const validation = await tool.validateInput(parsed, context);
  if (!validation.ok) return { content: validation.message, isError: true };
  return tool.mapResult(await tool.call(parsed, context), 'toolu_1');
}

const plan: TodoWriteInput = {
  todos: [
    { content: 'Write the parser', status: 'completed', activeForm: 'Writing the parser' },
    { content: 'Run the tests', status: 'in_progress', activeForm: 'Running the tests' },
    { content: 'Update the docs', status: 'pending', activeForm: 'Updating the docs' },
  ],
};

describe('TodoWrite', () => {
  it('replaces the list of the calling agent only, and tells subscribers', async () => {
    const store = createTodoStore();
    const services = createServices().set(TODO_STORE, store);
    const changes: TodoChange[] = [];
    store.subscribe((change) => changes.push(change));
    expect(await write(plan, services)).toEqual({
      content:
        'Todo list updated: 3 items, 2 not yet completed. Keep it current: mark each item in_progress when you start it and completed as soon as it is done.',
    });
    const sub: TodoWriteInput = {
      todos: [{ content: 'Search the code', status: 'in_progress', activeForm: 'Searching the code' }],
    };
    await write(sub, services, 'agent-7');
    expect(store.get('main')).toEqual(plan.todos);
    expect(store.get('agent-7')).toEqual(sub.todos);
    expect(store.entries().map(([agent]) => agent)).toEqual(['main', 'agent-7']);
    await write({ todos: [] }, services);
    expect(store.get('main')).toEqual([]);
    expect(changes.map((change) => [change.agentId, change.previous.length, change.todos.length])).toEqual([
      ['main', 0, 3],
      ['agent-7', 0, 1],
      ['main', 3, 0],
    ]);
  });

  it('clears the stored list once every item is completed', async () => {
    const store = createTodoStore();
    const services = createServices().set(TODO_STORE, store);
    await write(plan, services);
    const done: TodoWriteInput = { todos: plan.todos.map((todo) => ({ ...todo, status: 'completed' as const })) };
    expect(await write(done, services)).toEqual({
      content:
        'All 3 items are completed; the todo list is cleared. Start a new list when a new multi-step task begins.',
    });
    expect(store.get('main')).toEqual([]);
  });

  it('refuses more than one item in progress', async () => {
    const services = createServices().set(TODO_STORE, createTodoStore());
    const result = await write(
      {
        todos: [
          { content: 'A', status: 'in_progress', activeForm: 'Doing A' },
          { content: 'B', status: 'in_progress', activeForm: 'Doing B' },
        ],
      },
      services,
    );
    expect(result).toEqual({
      content:
        '2 items are in_progress ("A", "B"); at most one may be. Keep the one you are working on in_progress and set the others to pending or completed.',
      isError: true,
    });
    expect(services.get(TODO_STORE)?.get('main')).toEqual([]);
  });

  it('refuses blank and duplicate items', async () => {
    const services = createServices().set(TODO_STORE, createTodoStore());
    expect(await write({ todos: [{ content: ' ', status: 'pending', activeForm: 'x' }] }, services)).toMatchObject({
      content: 'Item 1 has an empty content or activeForm; give every item both.',
    });
    const twice = { content: 'A', status: 'pending', activeForm: 'Doing A' } as const;
    expect(await write({ todos: [twice, twice] }, services)).toMatchObject({
      content: expect.stringMatching(/appears twice/),
    });
  });

  it('rejects an unknown status at the schema', () => {
    expect(todoWriteInputSchema.safeParse({ todos: [{ content: 'A', status: 'done', activeForm: 'A' }] }).success).toBe(
      false,
    );
  });

  it('fails clearly without a todo store', async () => {
    expect(await write(plan, createServices())).toMatchObject({
      isError: true,
      content: expect.stringMatching(/no todo store/),
    });
  });

  it('allows itself without asking and freezes stored lists', async () => {
    expect(await tool.checkPermissions(plan, makeContext(createServices()))).toMatchObject({ behavior: 'allow' });
    const store = createTodoStore();
    store.replace('main', plan.todos);
    expect(Object.isFrozen(store.get('main'))).toBe(true);
    expect(tool.describeInput(plan)).toBe('3 todos');
  });
});

describe('model-facing definition', () => {
  it('is stable (it is API and part of the prompt-cache prefix)', () => {
    const cache = createApiToolCache();
    expect([cache.toApiTool(tool)]).toMatchSnapshot();
  });
});
