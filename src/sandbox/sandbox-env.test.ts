import { describe, expect, it } from 'vitest';
import { sandboxEnv } from './sandbox-env.js';

const env = {
  PATH: '/usr/bin',
  GITHUB_TOKEN: 'ghp_0123456789abcdefghijABCDEFGHIJ012345',
  GH_PAT: 'ghp_0123456789abcdefghijABCDEFGHIJ012345',
  CI_JOB: 'glpat-abcdefghij0123456789',
  BOT: 'xoxb-1234-5678-abcdef',
  AWS_ID: 'AKIAABCDEFGHIJKLMNOP',
  WEBHOOK: 'https://hooks.slack.com/services/T0/B0/abc',
  DEPLOY: '-----BEGIN OPENSSH PRIVATE KEY-----',
  ANTHROPIC_API_KEY: 'sk-ant-api03-abc',
  LLM_KEY_FOR_SCRIPTS: 'sk-ant-api03-abc',
  OPENAI_COPY: 'sk-proj-abc',
  EDITOR: 'vim',
  KEYBOARD_LAYOUT: 'us',
  TOKENIZERS_PARALLELISM: 'false',
  GIT_AUTHOR_NAME: 'ghp_ is how GitHub tokens start',
};

describe('sandboxEnv', () => {
  it('drops a model key under any name in both profiles', () => {
    for (const profile of ['read-only', 'workspace'] as const) {
      const result = sandboxEnv(env, { profile, tmpDir: '/s/tmp' });
      expect(result.ANTHROPIC_API_KEY).toBeUndefined();
      expect(result.LLM_KEY_FOR_SCRIPTS).toBeUndefined();
      expect(result.OPENAI_COPY).toBeUndefined();
    }
  });

  it('read-only: drops credentials by their well-known form whatever the name, and keeps look-alikes', () => {
    const result = sandboxEnv(env, { profile: 'read-only', tmpDir: '/s/tmp' });
    for (const name of ['GITHUB_TOKEN', 'GH_PAT', 'CI_JOB', 'BOT', 'AWS_ID', 'WEBHOOK', 'DEPLOY'])
      expect(result[name], name).toBeUndefined();
    expect(result).toMatchObject({
      PATH: '/usr/bin',
      EDITOR: 'vim',
      KEYBOARD_LAYOUT: 'us',
      TOKENIZERS_PARALLELISM: 'false',
      GIT_AUTHOR_NAME: env.GIT_AUTHOR_NAME,
    });
    expect(result.TMPDIR).toBe('/s/tmp');
  });

  it('workspace: keeps ordinary credentials (a push needs its token)', () => {
    const result = sandboxEnv(env, { profile: 'workspace', tmpDir: '/s/tmp' });
    expect(result.GITHUB_TOKEN).toBe(env.GITHUB_TOKEN);
    expect(result.GH_PAT).toBe(env.GH_PAT);
    expect(result.TOOLPLANE_SANDBOX).toBe('workspace');
  });
});
