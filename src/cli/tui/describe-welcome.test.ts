import { describe, expect, it } from 'vitest';
import { describeWelcome } from './describe-welcome.js';

describe('describeWelcome', () => {
  const status = {
    provider: 'anthropic',
    model: 'claude-x',
    mode: 'acceptEdits',
    sessionId: 's',
    cwd: '/work/p',
    contextTokens: 0,
    contextWindow: 200_000,
  } as const;
  it('shows the version, model and provider, mode, folder and its trust, and the keys', () => {
    const content = describeWelcome(status, { version: '1.2.3', projectTrust: 'trusted' });
    expect(content.title).toBe('toolplane 1.2.3');
    expect(content.rows).toEqual([
      { label: 'model', value: 'claude-x (anthropic)' },
      { label: 'mode', value: 'acceptEdits' },
      { label: 'folder', value: '/work/p' },
      { label: 'trust', value: 'trusted' },
    ]);
    expect(content.hint).toContain('/help');
    expect(content.hint).toContain('Shift+Tab');
    expect(content.hint).toContain('Ctrl+C');
  });
  it('says what an untrusted folder limits', () => {
    const content = describeWelcome(status, { version: '1.2.3', projectTrust: 'untrusted' });
    expect(content.rows.at(-1)?.value).toMatch(/^not trusted: project settings limited/);
  });
});
