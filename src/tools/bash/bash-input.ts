import { z } from 'zod';
import { DEFAULT_BASH_TIMEOUT_MS, MAX_BASH_TIMEOUT_MS } from './bash-prompt.js';

/** The Bash tool's input, with the reference system's names. */
export const bashInputSchema = z.strictObject({
  command: z.string().describe('The command to run.'),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(MAX_BASH_TIMEOUT_MS)
    .optional()
    .describe(`Time limit in milliseconds (default ${DEFAULT_BASH_TIMEOUT_MS}, at most ${MAX_BASH_TIMEOUT_MS}).`),
  description: z.string().optional().describe('What the command does, in 5-10 words, for the person watching.'),
  run_in_background: z
    .boolean()
    .optional()
    .describe('Run without waiting; returns a task id to use with TaskOutput and TaskStop.'),
  dangerouslyDisableSandbox: z
    .boolean()
    .optional()
    .describe(
      'Ask the user to let this one command run outside the sandbox, with their full access. Only when the sandbox blocked something the task truly needs.',
    ),
});

/** A parsed Bash input. */
export type BashInput = z.infer<typeof bashInputSchema>;
