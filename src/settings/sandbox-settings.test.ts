import { describe, expect, it } from 'vitest';
import { mergeSandboxSettings, sandboxSettingsSchema, type SandboxSource } from './sandbox-settings.js';

const where = { cwd: '/work/project', homeDir: '/home/me' };
const loosening = sandboxSettingsSchema.parse({
  enabled: false,
  excludedCommands: ['docker'],
  network: { allowAllUnixSockets: true },
  filesystem: { allowWrite: ['~/.gradle'], allowRead: ['~/.ssh'] },
});

describe('mergeSandboxSettings', () => {
  it('defaults to a sandbox that is on, with network, and nothing loosened', () => {
    expect(mergeSandboxSettings([], where)).toMatchObject({
      enabled: true,
      network: true,
      allowAllUnixSockets: false,
      failIfUnavailable: false,
      allowUnsandboxedCommands: true,
    });
  });

  it("ignores a project's loosening keys, with a notice, and honours the same keys from user settings", () => {
    for (const source of ['projectSettings', 'localSettings'] as const) {
      const merged = mergeSandboxSettings([{ source, label: '.toolplane/settings.json', sandbox: loosening }], where);
      expect(merged).toMatchObject({
        enabled: true,
        excludedCommands: [],
        allowWrite: [],
        allowRead: [],
        allowAllUnixSockets: false,
      });
      expect(merged.notices.join('\n')).toContain(
        'enabled, allowWrite, allowRead, excludedCommands, network.allowAllUnixSockets ignored',
      );
    }
    for (const source of ['userSettings', 'managed', 'cli'] as const) {
      const merged = mergeSandboxSettings([{ source, label: 'user', sandbox: loosening }], where);
      expect(merged).toMatchObject({
        enabled: false,
        excludedCommands: ['docker'],
        allowWrite: ['/home/me/.gradle'],
        allowRead: ['/home/me/.ssh'],
        allowAllUnixSockets: true,
      });
    }
  });

  it('ignores loosening keys of a user file that is held (a tool call wrote it)', () => {
    const merged = mergeSandboxSettings(
      [{ source: 'userSettings', label: 'u', sandbox: loosening, restricted: true }],
      where,
    );
    expect(merged).toMatchObject({ enabled: true, allowRead: [], excludedCommands: [] });
    expect(merged.notices.join('\n')).toContain('held');
  });

  it('takes tightening keys from any source, a project included', () => {
    const project: SandboxSource = {
      source: 'projectSettings',
      label: 'p',
      sandbox: sandboxSettingsSchema.parse({
        failIfUnavailable: true,
        allowUnsandboxedCommands: false,
        network: { enabled: false },
        filesystem: { denyRead: ['secrets'], denyWrite: ['~/bin'] },
      }),
    };
    const user: SandboxSource = {
      source: 'userSettings',
      label: 'u',
      sandbox: sandboxSettingsSchema.parse({ network: { enabled: true } }),
    };
    expect(mergeSandboxSettings([project, user], where)).toMatchObject({
      failIfUnavailable: true,
      allowUnsandboxedCommands: false,
      network: false,
      denyRead: ['/work/project/secrets'],
      denyWrite: ['/home/me/bin'],
    });
  });

  it('lets the highest-precedence source decide a loosening switch', () => {
    const managed: SandboxSource = {
      source: 'managed',
      label: 'm',
      sandbox: sandboxSettingsSchema.parse({ enabled: true }),
    };
    const user: SandboxSource = {
      source: 'userSettings',
      label: 'u',
      sandbox: sandboxSettingsSchema.parse({ enabled: false }),
    };
    expect(mergeSandboxSettings([managed, user], where).enabled).toBe(true);
  });

  it('reports the keys bubblewrap cannot enforce instead of pretending', () => {
    const sandbox = sandboxSettingsSchema.parse({
      autoAllowBashIfSandboxed: true,
      network: { allowedDomains: ['github.com'], allowUnixSockets: ['/var/run/docker.sock'], httpProxyPort: 8080 },
    });
    const notices = mergeSandboxSettings([{ source: 'userSettings', label: 'u', sandbox }], where).notices.join('\n');
    expect(notices).toContain('autoAllowBashIfSandboxed is ignored');
    expect(notices).toContain('allowedDomains is not enforced');
    expect(notices).toContain('allowUnixSockets is not enforced per path');
    expect(notices).toContain('httpProxyPort is not supported');
  });
});
