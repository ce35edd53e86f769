import { describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../contract/permission.js';
import { createServices, type ServiceRegistry } from '../../contract/services.js';
import type { ToolCallContext } from '../../contract/tool.js';
import {
  askUserQuestionInputSchema,
  createAskUserQuestionTool,
  type AskUserQuestionInput,
} from './ask-user-question-tool.js';
import { INTERACTION_CHANNEL, createInteractionChannel, type Question } from './interaction-channel.js';
import { createApiToolCache } from '../../schema/to-api-tool.js';

function makeContext(
  services: ServiceRegistry,
  options: { signal?: AbortSignal; permissionMode?: PermissionMode } = {},
): ToolCallContext {
  return {
    toolUseId: 'toolu_q',
    signal: options.signal ?? new AbortController().signal,
    cwd: '/',
    sessionId: 'session-1',
    agentId: 'main',
    permissionMode: options.permissionMode ?? 'default',
    services,
    reportProgress: () => undefined,
  };
}

const tool = createAskUserQuestionTool();

const input: AskUserQuestionInput = {
  questions: [
    {
      question: 'Which database should the service use?',
      header: 'Database',
      options: [
        { label: 'PostgreSQL (Recommended)', description: 'Already used by the other services.' },
        { label: 'SQLite', description: 'No server, single file.' },
      ],
    },
    {
      question: 'Which features should ship first?',
      header: 'Features',
      options: [
        { label: 'Auth', description: 'Sign-in and sessions.' },
        { label: 'Search', description: 'Full-text search.' },
        { label: 'Export', description: 'CSV export.' },
      ],
      multiSelect: true,
    },
  ],
};

async function ask(services: ServiceRegistry, context = makeContext(services)) {
  const parsed = askUserQuestionInputSchema.parse(input);
  return tool.mapResult(await tool.call(parsed, context), 'toolu_q');
}

describe('AskUserQuestion', () => {
  it('asks the person through the channel and returns their answers', async () => {
    let asked: readonly Question[] = [];
    const channel = createInteractionChannel({
      async askQuestions(request) {
        asked = request.questions;
        expect(request).toMatchObject({ toolUseId: 'toolu_q', agentId: 'main' });
        return {
          kind: 'answered',
          answers: [
            { question: 'Which database should the service use?', selected: ['PostgreSQL (Recommended)'] },
            { question: 'Which features should ship first?', selected: ['Auth', 'Search'] },
          ],
        };
      },
    });
    const mapped = await ask(createServices().set(INTERACTION_CHANNEL, channel));
    expect(mapped).toEqual({
      content:
        'The person answered your questions:\n' +
        '"Which database should the service use?" = "PostgreSQL (Recommended)"\n' +
        '"Which features should ship first?" = "Auth, Search"\n' +
        'Continue with these answers in mind.',
    });
    expect(asked.map((question) => question.multiSelect)).toEqual([false, true]);
  });

  it('marks questions the person skipped', async () => {
    const channel = createInteractionChannel({
      askQuestions: async () => ({
        kind: 'answered',
        answers: [{ question: 'Which features should ship first?', selected: ['a custom answer'] }],
      }),
    });
    const mapped = await ask(createServices().set(INTERACTION_CHANNEL, channel));
    expect(mapped.content).toContain('"Which database should the service use?" = "(no answer)"');
    expect(mapped.content).toContain('"Which features should ship first?" = "a custom answer"');
  });

  it('answers with an error when no person is available', async () => {
    expect(await ask(createServices())).toEqual({
      content:
        'No person is available to answer questions in this session. Decide with the most reasonable assumption, state it in your reply, and continue.',
      isError: true,
    });
  });

  it('passes on a refusal with the person\u2019s words', async () => {
    const channel = createInteractionChannel({
      askQuestions: async () => ({ kind: 'declined', feedback: 'just pick one' }),
    });
    const mapped = await ask(createServices().set(INTERACTION_CHANNEL, channel));
    expect(mapped.isError).toBe(true);
    expect(mapped.content).toMatch(/^The person declined to answer\. They said: just pick one /);
    const silent = createInteractionChannel({});
    expect((await ask(createServices().set(INTERACTION_CHANNEL, silent))).content).toMatch(/cannot show questions/);
  });

  it('gives up when the call is aborted while waiting, and reports a broken channel', async () => {
    const controller = new AbortController();
    const channel = createInteractionChannel({
      askQuestions: () => {
        controller.abort();
        return new Promise(() => undefined);
      },
    });
    const services = createServices().set(INTERACTION_CHANNEL, channel);
    expect(await ask(services, makeContext(services, { signal: controller.signal }))).toEqual({
      content: 'The question was cancelled before the person answered.',
      isError: true,
    });
    const broken = createInteractionChannel({ askQuestions: async () => Promise.reject(new Error('terminal closed')) });
    expect((await ask(createServices().set(INTERACTION_CHANNEL, broken))).content).toBe(
      'The question could not be shown to the person: terminal closed.',
    );
  });

  it('refuses repeated questions, repeated options and malformed input', async () => {
    const context = makeContext(createServices());
    const first = input.questions[0];
    if (!first) throw new Error('fixture');
    expect(await tool.validateInput({ questions: [first, first] }, context)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/asked twice/),
    });
    const sameOptions = {
      ...first,
      options: [first.options[0], { label: 'postgresql (recommended)', description: 'x' }],
    };
    expect(
      await tool.validateInput(askUserQuestionInputSchema.parse({ questions: [sameOptions] }), context),
    ).toMatchObject({
      ok: false,
      message: expect.stringMatching(/twice; make the options distinct/),
    });
    expect(askUserQuestionInputSchema.safeParse({ questions: [] }).success).toBe(false);
    expect(
      askUserQuestionInputSchema.safeParse({ questions: [{ ...first, header: 'Far too long a header' }] }).success,
    ).toBe(false);
    expect(
      askUserQuestionInputSchema.safeParse({ questions: [{ ...first, options: [first.options[0]] }] }).success,
    ).toBe(false);
  });

  it('denies itself in dontAsk mode and allows itself otherwise', async () => {
    const services = createServices();
    expect(await tool.checkPermissions(input, makeContext(services, { permissionMode: 'dontAsk' }))).toMatchObject({
      behavior: 'deny',
      reason: { kind: 'mode', mode: 'dontAsk' },
    });
    expect(await tool.checkPermissions(input, makeContext(services))).toMatchObject({ behavior: 'allow' });
    expect(tool.isReadOnly(input)).toBe(true);
  });
});

describe('model-facing definition', () => {
  it('is stable (it is API and part of the prompt-cache prefix)', () => {
    const cache = createApiToolCache();
    expect([cache.toApiTool(tool)]).toMatchSnapshot();
  });
});
