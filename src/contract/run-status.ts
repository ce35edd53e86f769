/** How a run of the loop ended: the loop's result, a subagent's, and the headless result's `subtype`. */
export type RunStatus =
  | 'success'
  | 'error_max_turns'
  | 'error_max_budget_usd'
  | 'error_during_execution'
  | 'error_max_structured_output_retries'
  | 'aborted';
