import { TOOL_SEARCH_NAME } from './tool-search-name.js';

/** ToolSearch's model-facing description. */
export const TOOL_SEARCH_PROMPT = `Fetches the full schema definitions of deferred tools so they can be called.

Deferred tools are announced by name only; until their schemas are loaded they cannot be called. ${TOOL_SEARCH_NAME} searches them and returns the matching tools, whose schemas become available from your next call on.

Query forms:
- "select:Read,Edit" fetches these exact tools by name.
- "mcp__slack" lists the tools of one MCP server; add words to rank them ("mcp__slack send message").
- "notebook jupyter" searches names, descriptions and parameters by keywords, best matches first.
- "+slack send" requires "slack" in every result and ranks by the other words.

Use max_results to get more matches (default 5).`;
