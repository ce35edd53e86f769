/** The model-facing description of the NotebookEdit tool. */
export const NOTEBOOK_EDIT_PROMPT = `Changes one cell of a Jupyter notebook (.ipynb): replaces its source, inserts a new cell, or deletes a cell.

Use it for notebooks instead of Edit or Write, which would have to rewrite the notebook's JSON by hand.

- notebook_path must be absolute, and you must have read the notebook with Read first in this conversation. If it changed on disk since (for example because it was run and saved), read it again.
- cell_id is the id shown by Read in <cell id="..."> tags. Notebooks without cell ids use "cell-N", where N is the 0-based position.
- edit_mode "replace" (the default) sets the source of the cell cell_id to new_source and clears the outputs of a code cell. Pass cell_type to change the cell's type at the same time.
- edit_mode "insert" adds a new cell after cell_id, or at the top when cell_id is omitted. cell_type ("code" or "markdown") is required.
- edit_mode "delete" removes the cell cell_id; new_source is ignored (send an empty string).
- The notebook is rewritten atomically and keeps everything else: metadata, other cells, their outputs. On failure nothing changes; read the error and act on it.`;
