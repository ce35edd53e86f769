import type { HostStatus, HostWelcome } from './interactive-host.js';

/** One line of the welcome panel: a label and its value. */
export type WelcomeRow = { readonly label: string; readonly value: string };

/** The welcome panel's content: a title, labelled rows, and a hint about the keys. */
export type WelcomeContent = { readonly title: string; readonly rows: readonly WelcomeRow[]; readonly hint: string };

const TRUST: Readonly<Record<HostWelcome['projectTrust'], string>> = {
  trusted: 'trusted',
  untrusted: 'not trusted: project settings limited to their deny and ask rules (toolplane trust changes it)',
  unknown: 'not trusted yet: project settings limited to their deny and ask rules',
};

/**
 * What the welcome panel says at the start: the version, the model and its provider, the
 * permission mode, the working folder with its trust state, and the keys to know. Pure.
 */
export function describeWelcome(status: HostStatus, welcome: HostWelcome): WelcomeContent {
  return {
    title: `toolplane ${welcome.version}`,
    rows: [
      { label: 'model', value: `${status.model} (${status.provider})` },
      { label: 'mode', value: status.mode },
      { label: 'folder', value: status.cwd },
      { label: 'trust', value: TRUST[welcome.projectTrust] },
    ],
    hint: '/help for commands · Shift+Tab changes the mode · Esc or Ctrl+C interrupts · Ctrl+C twice exits',
  };
}
