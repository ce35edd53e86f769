import type { SandboxProfile } from '../contract/sandbox.js';
import { isModelCredentialName } from '../contract/scrub-env.js';

/** Names that look like they hold a secret: dropped from read-only commands' environment. */
const SECRET_LOOKING = /(^|_)(KEY|APIKEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?|COOKIE|SESSION|AUTH|DSN)(_|$)/i;
/** A URL with a password in it (`postgres://user:pass@host/db`). */
const URL_WITH_PASSWORD = /:\/\/[^/\s:@]+:[^/\s@]+@/;
/** What a read-only command needs to find its programs and talk to a person, whatever the names say. */
const ALWAYS_KEPT: ReadonlySet<string> = new Set(['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'LANG', 'PWD']);

/**
 * The environment a sandboxed command gets: model-provider credentials never; in the read-only
 * profile also nothing secret-looking (a `GITHUB_TOKEN` is for pushing, not for `ls`); the socket
 * of an ssh or gpg agent never (its folder is masked anyway). `TMPDIR` points at the private tmp.
 */
export function sandboxEnv(
  env: Readonly<Record<string, string>>,
  options: { readonly profile: SandboxProfile; readonly tmpDir: string },
): Record<string, string> {
  const result: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(env)) {
    if (isModelCredentialName(name)) continue;
    if (name === 'SSH_AUTH_SOCK' || name === 'GPG_AGENT_INFO') continue;
    if (options.profile === 'read-only' && !ALWAYS_KEPT.has(name) && (SECRET_LOOKING.test(name) || URL_WITH_PASSWORD.test(value))) continue;
    result[name] = value;
  }
  result.TMPDIR = options.tmpDir;
  result.TOOLPLANE_SANDBOX = options.profile;
  return result;
}
