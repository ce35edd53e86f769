import type { SandboxProfile } from '../contract/sandbox.js';
import { isModelCredentialName } from '../contract/scrub-env.js';

/** Names that look like they hold a secret: dropped from read-only commands' environment. */
const SECRET_LOOKING =
  /(^|_)(KEY|APIKEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?|COOKIE|SESSION|AUTH|DSN)(_|$)/i;
/** A URL with a password in it (`postgres://user:pass@host/db`). */
const URL_WITH_PASSWORD = /:\/\/[^/\s:@]+:[^/\s@]+@/;
/**
 * A model provider's key by its form, whatever the variable is called (`LLM_KEY=sk-ant-…`): dropped
 * in every profile, like the variables named as model credentials.
 */
const MODEL_KEY_VALUE = /^(sk-ant-|sk-proj-|sk-svcacct-|sk-or-v1-|gsk_|xai-|hf_[A-Za-z0-9]{30,})/;
/**
 * A credential by its well-known form (GitHub, GitLab, Slack, AWS, Google, npm, Stripe tokens, a
 * private key, a Slack or Discord webhook): dropped from read-only commands whatever the name.
 */
const TOKEN_VALUE =
  /^(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_|glpat-|xox[abposr]-|(AKIA|ASIA)[0-9A-Z]{16}$|AIza[0-9A-Za-z_-]{30,}|npm_[A-Za-z0-9]{30,}|[sr]k_(live|test)_|-----BEGIN [A-Z ]*PRIVATE KEY)|hooks\.slack\.com\/services\/|discord(app)?\.com\/api\/webhooks\//;
/** What a read-only command needs to find its programs and talk to a person, whatever the names say. */
const ALWAYS_KEPT: ReadonlySet<string> = new Set(['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'LANG', 'PWD']);

/**
 * The environment a sandboxed command gets: model-provider credentials never (by name or by the
 * form of the key); in the read-only profile also nothing secret-looking by name or by value (a
 * `GITHUB_TOKEN` is for pushing, not for `ls`); the socket of an ssh or gpg agent never (its
 * folder is masked anyway). `TMPDIR` points at the private tmp.
 */
export function sandboxEnv(
  env: Readonly<Record<string, string>>,
  options: { readonly profile: SandboxProfile; readonly tmpDir: string },
): Record<string, string> {
  const result: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(env)) {
    if (isModelCredentialName(name) || MODEL_KEY_VALUE.test(value)) continue;
    if (name === 'SSH_AUTH_SOCK' || name === 'GPG_AGENT_INFO') continue;
    if (
      options.profile === 'read-only' &&
      !ALWAYS_KEPT.has(name) &&
      (SECRET_LOOKING.test(name) || URL_WITH_PASSWORD.test(value) || TOKEN_VALUE.test(value))
    )
      continue;
    result[name] = value;
  }
  result.TMPDIR = options.tmpDir;
  result.TOOLPLANE_SANDBOX = options.profile;
  return result;
}
