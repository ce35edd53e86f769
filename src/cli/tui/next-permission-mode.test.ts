import { describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../contract/permission.js';
import { nextPermissionMode } from './next-permission-mode.js';

const cycle = (start: PermissionMode, bypassAvailable: boolean, steps: number): PermissionMode[] => {
  const seen: PermissionMode[] = [];
  let mode = start;
  for (let step = 0; step < steps; step++) seen.push((mode = nextPermissionMode(mode, { bypassAvailable })));
  return seen;
};

describe('nextPermissionMode', () => {
  it('cycles default → acceptEdits → plan → default without bypass', () => {
    expect(cycle('default', false, 4)).toEqual(['acceptEdits', 'plan', 'default', 'acceptEdits']);
  });

  it('enters bypassPermissions after plan only when it is available', () => {
    expect(cycle('bypassPermissions', true, 4)).toEqual(['default', 'acceptEdits', 'plan', 'bypassPermissions']);
  });

  it('leaves dontAsk for default', () => {
    expect(nextPermissionMode('dontAsk', { bypassAvailable: false })).toBe('default');
  });
});
