/** The model-facing description of the Grep tool. */
export const GREP_PROMPT = `Searches file contents with regular expressions, using ripgrep.

Use it whenever you need to find where something is written: a function's definition or callers, a string, a configuration key. Prefer it to grep or rg in Bash. To find files by name, use Glob.

- pattern is a ripgrep (Rust) regular expression, such as "log.*Error" or "function\\s+\\w+". Braces and other special characters need escaping to be matched literally: "interface\\{\\}" finds "interface{}".
- path is the file or folder to search (absolute); it defaults to the working folder. Files ignored by .gitignore and version-control folders are skipped; hidden files are included.
- Narrow the files with glob (for example "*.js" or "*.{ts,tsx}"; several globs separated by spaces) or type (a ripgrep file type such as "js", "py", "rust").
- output_mode: "files_with_matches" (the default) lists the files that match, sorted by path; "content" shows the matching lines; "count" shows the number of matches per file.
- In content mode: -n shows line numbers (on by default), -A, -B and -C (or context) add lines after, before or around each match, -i ignores case.
- multiline: true lets a pattern span lines and makes . match line breaks. Off by default, so patterns match within single lines.
- Results are paged: head_limit (default 250; 0 for no limit) caps the lines or entries returned, offset skips that many first. When there are more, you are told how to continue. Very long lines are shortened.
- An invalid pattern gets ripgrep's error message back: fix the pattern and try again.
- You can run several Grep searches in parallel.`;
