/** The model-facing name of the ToolSearch tool (as in the reference system). */
export const TOOL_SEARCH_NAME = 'ToolSearch';
