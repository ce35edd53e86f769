/** The model-facing description of the Glob tool. */
export const GLOB_PROMPT = `Finds files by name pattern, fast, in a folder tree of any size.

Use it to locate files by name or extension ("**/*.ts", "src/**/test_*.py", "**/package.json"). To search file contents, use Grep. For open-ended searches that need several rounds, combine the two.

- pattern is a glob: * matches within one path segment, ** across folders, {a,b} alternatives, [abc] character sets. It is matched against paths relative to the search folder, so "*.ts" matches only files directly in it and "**/*.ts" matches at any depth.
- path is the folder to search; it defaults to the working folder. Give it as an absolute path. Do not pass "undefined" or "null"; just omit it.
- Files ignored by .gitignore and version-control folders are skipped. Hidden files are included.
- Results are absolute paths, most recently modified first, at most 100. When there are more, you are told; narrow the pattern or the path.
- You can run several Glob searches in parallel.`;
