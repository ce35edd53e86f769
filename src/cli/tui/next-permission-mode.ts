import type { PermissionMode } from '../../contract/permission.js';

/**
 * The mode Shift+Tab switches to: default → acceptEdits → plan → default. bypassPermissions joins
 * the cycle (after plan) only when `bypassAvailable` (the session started in it and settings do
 * not disable it); any other mode (dontAsk) goes back to default.
 */
export function nextPermissionMode(
  current: PermissionMode,
  options: { readonly bypassAvailable: boolean },
): PermissionMode {
  switch (current) {
    case 'default':
      return 'acceptEdits';
    case 'acceptEdits':
      return 'plan';
    case 'plan':
      return options.bypassAvailable ? 'bypassPermissions' : 'default';
    case 'bypassPermissions':
    case 'dontAsk':
      return 'default';
  }
}
