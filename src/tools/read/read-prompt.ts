/** The model-facing description of the Read tool. */
export const READ_PROMPT = `Reads a file from the local file system and shows you its contents.

Use it whenever you need to see a file: before changing it (Edit and Write refuse files you have not read), to check what a file holds, or to look at an image, PDF or notebook. Prefer it to cat, head or tail in Bash.

- file_path must be absolute. Relative paths are refused.
- Text comes back with line numbers in the style of cat -n: the number, a tab, then the line. The number and tab are not part of the file; never copy them into old_string or into content you write.
- By default up to 2000 lines from the start are shown. For longer files, pass offset (the 1-based line to start at) and limit (how many lines). Lines longer than 2000 characters are cut.
- A whole-file read of a large file is refused; read it in ranges with offset and limit, or use Grep to find the lines you need first.
- Images (PNG, JPEG, GIF, WebP) are shown to you as images.
- PDFs are returned as text, page by page. For a PDF of more than 20 pages, pass pages (for example "1-5"); at most 20 pages per call.
- Jupyter notebooks (.ipynb) are shown as cells with their outputs, each cell tagged with its id for NotebookEdit.
- Binary files and device or special files (such as /dev/zero or a FIFO) are refused. Folders are refused too: use Glob to list files.
- You can read several files at once by calling Read in parallel.
- If a file is missing you get the error, often with similar names that do exist; check the path with Glob before trying again.`;
