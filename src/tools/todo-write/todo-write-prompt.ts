/** The TodoWrite tool's model-facing description. */
export const TODO_WRITE_PROMPT = `Writes your todo list for the current task: a short, ordered list of steps that the person can watch while you work. Each call replaces the whole list, so always send every item, including finished ones.

When to use it:
- the task has three or more distinct steps, or the person gave you several things to do;
- new requirements appear while you work (add them);
- you start a step (mark it in_progress before you begin) or finish one (mark it completed right away, not in batches at the end).

When not to use it: a single, simple change, a question you can answer directly, or a purely conversational reply. A list for a trivial task is noise.

Each item:
- content: the step in the imperative ("Run the tests");
- activeForm: the same step in the present continuous, shown while it runs ("Running the tests");
- status: pending, in_progress or completed.

Rules: at most one item is in_progress at a time. Mark an item completed only when it is fully done: tests pass, nothing is left half-written. If a step is blocked or failed, keep it in_progress or pending and add an item for what must be resolved. Remove items that no longer apply.

On failure: the result says which rule the list broke; fix the list and send it again.`;
