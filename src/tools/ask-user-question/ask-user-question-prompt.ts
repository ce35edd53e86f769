/** The AskUserQuestion tool's model-facing description. */
export const ASK_USER_QUESTION_PROMPT = `Asks the person one to four multiple-choice questions and waits for the answers.

When to use it: when you need a decision only the person can make and guessing would waste work — which of several reasonable designs to follow, which library to use, what a requirement means, whether to go ahead with something risky. Ask early, before building on an assumption.

When not to use it: for facts you can find yourself in the code, documents or the tools; for permission to run a tool (the runtime asks the person when needed); to ask whether your plan is ready while in plan mode (use ExitPlanMode to present the plan).

Each question:
- question: a complete, specific question ending with a question mark;
- header: a tag of at most 12 characters shown beside it ("Database", "Auth method");
- options: 2 to 4 distinct choices, each a short label (1-5 words) and a description of what it means or implies. Put the option you recommend first and add "(Recommended)" to its label. The person can always type an answer of their own instead, so do not add an "Other" option;
- multiSelect: true when several options may be chosen together.

The answers come back as the chosen labels or the person's own words. If no person is available, or the person declines, the result says so: decide with the most reasonable assumption, say which one you made, and continue.`;
