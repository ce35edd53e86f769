/**
 * What `/init` asks of the model: study the project and write its AGENTS.md (the instruction file
 * toolplane and other agents read at start). The file is written with the Write or Edit tool, so
 * it goes through the permission rules and the person's dialog like any other write.
 */
export const INIT_PROMPT = [
  'Study this project and write an AGENTS.md file at its root for coding agents that will work in it.',
  '',
  'Look at the layout, the build and package files, the README, the test setup and a few representative',
  'source files. Then write, briefly and concretely:',
  '- the commands that build, lint and test (including how to run a single test);',
  '- the architecture at a glance: the main folders, what lives where, and how the parts fit together;',
  '- the conventions a newcomer would get wrong (style, naming, error handling, where tests go).',
  '',
  'Leave out generic advice and anything obvious from a file listing. If an AGENTS.md, CLAUDE.md,',
  '.cursorrules or similar file exists, keep what is still true in it and improve on it rather than',
  'starting over. Use the Write tool (or Edit for an existing AGENTS.md) to save the file.',
].join('\n');
