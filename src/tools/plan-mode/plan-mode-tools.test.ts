import { describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../contract/permission.js';
import { createServices, type ServiceRegistry } from '../../contract/services.js';
import type { ToolCallContext } from '../../contract/tool.js';
import {
  INTERACTION_CHANNEL,
  createInteractionChannel,
  type PlanReview,
} from '../ask-user-question/interaction-channel.js';
import { PLAN_MODE_CONTROLLER, createPlanModeController, type PlanModeController } from './plan-mode-controller.js';
import { createEnterPlanModeTool, createExitPlanModeTool } from './plan-mode-tools.js';
import { createApiToolCache } from '../../schema/to-api-tool.js';

function makeContext(
  services: ServiceRegistry,
  options: { agentId?: string; signal?: AbortSignal } = {},
): ToolCallContext {
  return {
    toolUseId: 'toolu_p',
    signal: options.signal ?? new AbortController().signal,
    cwd: '/',
    sessionId: 'session-1',
    agentId: options.agentId ?? 'main',
    permissionMode: services.get(PLAN_MODE_CONTROLLER)?.mode() ?? 'default',
    services,
    reportProgress: () => undefined,
  };
}

const enter = createEnterPlanModeTool();
const exit = createExitPlanModeTool();
const PLAN = '1. Add the parser\n2. Test it';

function setup(review: (plan: string) => Promise<PlanReview>, initialMode: PermissionMode = 'acceptEdits') {
  const controller = createPlanModeController({ initialMode });
  const channel = createInteractionChannel({ reviewPlan: (request) => review(request.plan) });
  const services = createServices().set(PLAN_MODE_CONTROLLER, controller).set(INTERACTION_CHANNEL, channel);
  return { controller, services };
}

async function callEnter(services: ServiceRegistry, agentId?: string) {
  return enter.mapResult(await enter.call({}, makeContext(services, { agentId })), 'x');
}

async function callExit(services: ServiceRegistry, signal?: AbortSignal) {
  return exit.mapResult(await exit.call({ plan: PLAN }, makeContext(services, { signal })), 'x');
}

describe('EnterPlanMode and ExitPlanMode', () => {
  it('enters plan mode and, once the person approves, returns to the previous mode', async () => {
    const reviewed: string[] = [];
    const { controller, services } = setup(async (plan) => {
      reviewed.push(plan);
      return { approved: true };
    });
    const switches: string[] = [];
    controller.subscribe((mode, previous) => switches.push(`${previous}->${mode}`));
    expect((await callEnter(services)).content).toMatch(/^Entered plan mode\./);
    expect(controller.mode()).toBe('plan');
    expect(await callExit(services)).toEqual({
      content:
        'The person approved your plan. Plan mode is over; the permission mode is now acceptEdits. Start implementing the plan, and keep the todo list current.',
    });
    expect(reviewed).toEqual([PLAN]);
    expect(switches).toEqual(['acceptEdits->plan', 'plan->acceptEdits']);
  });

  it('switches to the mode the person chose on approval', async () => {
    const { controller, services } = setup(async () => ({ approved: true, mode: 'default' }));
    await callEnter(services);
    await callExit(services);
    expect(controller.mode()).toBe('default');
  });

  it('stays in plan mode with the feedback when the person rejects the plan', async () => {
    const { controller, services } = setup(async () => ({ approved: false, feedback: 'also cover the CLI' }));
    await callEnter(services);
    const mapped = await callExit(services);
    expect(mapped.isError).toBe(true);
    expect(mapped.content).toMatch(
      /^The person did not approve the plan\. Their feedback: also cover the CLI You are still in plan mode/,
    );
    expect(controller.mode()).toBe('plan');
  });

  it('refuses to enter twice, from a subagent, or without a controller', async () => {
    const { services } = setup(async () => ({ approved: true }));
    expect(await callEnter(services, 'agent-2')).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^Subagents cannot/),
    });
    await callEnter(services);
    expect(await callEnter(services)).toMatchObject({
      isError: true,
      content: expect.stringMatching(/already in plan mode/),
    });
    expect(await callEnter(createServices())).toMatchObject({
      isError: true,
      content: expect.stringMatching(/no plan-mode controller/),
    });
    expect(await callExit(createServices())).toMatchObject({
      isError: true,
      content: expect.stringMatching(/no plan-mode controller/),
    });
  });

  it('refuses to exit outside plan mode or with nobody to approve', async () => {
    const { services } = setup(async () => ({ approved: true }));
    expect(await callExit(services)).toMatchObject({
      isError: true,
      content: expect.stringMatching(/not in plan mode/),
    });
    const controller: PlanModeController = createPlanModeController({ initialMode: 'plan' });
    const alone = createServices().set(PLAN_MODE_CONTROLLER, controller);
    expect(await callExit(alone)).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^No person is available to approve the plan/),
    });
    expect(controller.mode()).toBe('plan');
    expect(controller.exit()).toBe('default');
  });

  it('stays in plan mode when the review is cancelled or fails', async () => {
    const controller = new AbortController();
    const pending = setup(() => {
      controller.abort();
      return new Promise(() => undefined);
    });
    await callEnter(pending.services);
    expect(await callExit(pending.services, controller.signal)).toEqual({
      content: 'The plan review was cancelled; you are still in plan mode.',
      isError: true,
    });
    expect(pending.controller.mode()).toBe('plan');
    const broken = setup(async () => Promise.reject(new Error('window closed')));
    await callEnter(broken.services);
    expect((await callExit(broken.services)).content).toBe(
      'The plan could not be shown to the person: window closed. You are still in plan mode.',
    );
  });

  it('rejects an empty plan and declares both tools read-only and self-approved', async () => {
    const services = createServices();
    expect(await exit.validateInput({ plan: '   ' }, makeContext(services))).toMatchObject({ ok: false });
    expect(exit.isReadOnly({ plan: PLAN })).toBe(true);
    expect(enter.isReadOnly({})).toBe(true);
    expect(await exit.checkPermissions({ plan: PLAN }, makeContext(services))).toMatchObject({ behavior: 'allow' });
    expect(await enter.checkPermissions({}, makeContext(services))).toMatchObject({ behavior: 'allow' });
  });
});

describe('createPlanModeController', () => {
  it('returns to default when the session started in plan mode, and ignores exit outside plan mode', () => {
    const controller = createPlanModeController({ initialMode: 'plan' });
    expect(controller.exit('plan')).toBe('default');
    expect(controller.exit('bypassPermissions')).toBe('default');
    expect(controller.enter()).toBe('default');
    expect(controller.enter()).toBe('plan');
    expect(controller.exit()).toBe('default');
  });
});

describe('model-facing definition', () => {
  it('is stable (it is API and part of the prompt-cache prefix)', () => {
    const cache = createApiToolCache();
    expect([cache.toApiTool(enter), cache.toApiTool(exit)]).toMatchSnapshot();
  });
});
