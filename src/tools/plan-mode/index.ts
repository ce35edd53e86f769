export {
  createEnterPlanModeTool,
  createExitPlanModeTool,
  mapPlanModeResult,
  enterPlanModeInputSchema,
  exitPlanModeInputSchema,
  type EnterPlanModeInput,
  type ExitPlanModeInput,
  type PlanModeResult,
} from './plan-mode-tools.js';
export {
  PLAN_MODE_CONTROLLER,
  createPlanModeController,
  type PlanModeController,
  type PermissionModeListener,
  type CreatePlanModeControllerOptions,
} from './plan-mode-controller.js';
export { ENTER_PLAN_MODE_PROMPT, EXIT_PLAN_MODE_PROMPT } from './plan-mode-prompt.js';
