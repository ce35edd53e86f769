/** A command-line mistake, reported with usage and exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
