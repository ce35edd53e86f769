/**
 * The stderr notice the CLI prints when a session starts in bypassPermissions mode. The
 * reference refuses to run as root; toolplane runs (containers and CI run as root) and says so.
 * `isRoot` comes from the caller (`process.getuid?.() === 0`), so this module touches no process state.
 */
export function bypassPermissionsNotice(options: { readonly isRoot: boolean }): string {
  const base =
    'toolplane: permission mode bypassPermissions: calls run without prompts. Deny rules, ask rules and critical rm targets still apply.';
  return options.isRoot
    ? `${base} Running as root: every command the model writes runs with full system privileges; use this only inside a disposable container or CI job.`
    : base;
}
