/** The model-facing description of the Write tool. */
export const WRITE_PROMPT = `Writes a file, creating it or replacing all of its content.

Use it to create new files, or to rewrite a file completely. To change part of an existing file, use Edit instead: it sends only the change and is less likely to lose content by accident. Do not create documentation or README files unless asked.

- file_path must be absolute. Missing parent folders are created.
- To overwrite an existing file you must first have read all of it in this conversation (Read without offset; for a file over 2,000 lines, with a limit at least its line count), and it must not have changed on disk since. If it changed, read it again first; if Write says you read only part of it, read the whole file.
- content is the complete new file. An existing file keeps its line endings (LF or CRLF), byte-order mark, encoding and permissions; write content with plain \\n line breaks.
- The file is replaced atomically: it is never left half-written. On failure nothing is changed; read the error and act on it.`;
