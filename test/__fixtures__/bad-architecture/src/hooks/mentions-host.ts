/** The host passes `process.env` and `process.cwd()`; this module only names them. */
// homedir() is the CLI's to call.
export const note = 'process.env is read by the CLI: homedir(), process.cwd()';
export function pick(env: Readonly<Record<string, string | undefined>>, cwd: string): string {
  return `${env['HOME'] ?? ''}${cwd}`;
}
