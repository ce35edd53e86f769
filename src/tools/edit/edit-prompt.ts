/** The model-facing description of the Edit tool. */
export const EDIT_PROMPT = `Replaces exact text in a file: old_string becomes new_string.

Use it for targeted changes to an existing file; it sends only the part that changes. Use Write instead to create a file or to replace all of it, and NotebookEdit for Jupyter notebooks.

- Read the file first in this conversation. Edit refuses a file you have not read, and refuses a file that changed on disk since you read it (by the person, a formatter or another process): read it again, then redo the change against what it holds now.
- file_path must be absolute.
- old_string must match the file exactly, including indentation, tabs and spaces. Copy it from what Read showed you, but without the line-number prefix (the number and the tab before each line).
- old_string must occur exactly once, unless replace_all is true. If it occurs several times, include enough surrounding lines to make it unique, or set replace_all to change every occurrence (useful for renaming).
- new_string must differ from old_string.
- To create a new file with Edit, give an empty old_string and the whole content as new_string; the file must not exist yet.
- The file keeps its line endings (LF or CRLF), byte-order mark, encoding and permissions. Write old_string and new_string with plain \\n line breaks.
- The change is written atomically: the file is never left half-written. When an edit fails, nothing is changed; read the error, fix the input and try again.`;
