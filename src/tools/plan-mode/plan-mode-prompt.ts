/** The EnterPlanMode tool's model-facing description. */
export const ENTER_PLAN_MODE_PROMPT = `Switches the session into plan mode: you explore and design before changing anything, and the person approves the plan before you implement it.

When to use it: before a task that is large, ambiguous or risky — a new feature touching several files, a refactor, a choice between designs — when agreeing on the approach first saves rework. Also when the person asks you to plan first.

When not to use it: for small, clear changes (a typo, a one-line fix), for pure questions, or when you are already in plan mode.

In plan mode, use only read-only tools (Read, Glob, Grep, read-only Bash commands, WebFetch) to understand the code; do not edit files or run commands that change anything — they will be refused. When the plan is ready, present it with ExitPlanMode.

Only the main agent can enter plan mode; subagents cannot.`;

/** The ExitPlanMode tool's model-facing description. */
export const EXIT_PLAN_MODE_PROMPT = `Presents your plan to the person for approval and, if they approve, leaves plan mode so you can implement it.

Use it only in plan mode, once you have explored enough to write a concrete plan: the files to change, the changes in order, how you will verify them (tests, commands), and the risks or open points. Write the plan in Markdown in \`plan\`; be specific and concise.

Do not use it to ask questions: ask with AskUserQuestion before you finish the plan. Do not use it for research-only tasks where there is nothing to implement.

If the person approves, the result tells you the mode you are now in; start implementing. If they reject it, you stay in plan mode and the result carries their feedback: revise the plan accordingly and call ExitPlanMode again.`;
