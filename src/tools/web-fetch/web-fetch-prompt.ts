/** The WebFetch tool's model-facing description. */
export const WEB_FETCH_PROMPT = `Fetches a web page and answers a prompt about it. HTML is converted to Markdown; plain text, Markdown and JSON come back as they are.

- url: a complete URL. http:// is upgraded to https://; only public hosts can be fetched (no localhost or private network addresses unless the session allows that host).
- prompt: what you want from the page ("the install command for Linux", "summarise the breaking changes"). When the session has a small model for this, you get its answer; otherwise you get the page content and answer the prompt yourself.

When to use it: to read documentation, a changelog, an issue or an API reference the person pointed to or that you need for the task.

When not to use it: for files in the workspace (use Read), for anything that needs authentication, cookies or a browser (logins, private dashboards), and for APIs you should call with a real client. Prefer an MCP tool for a service when one is available.

Limits:
- Large pages are cut; the result says so.
- Redirects to another host are not followed: the result names the target URL, and you fetch it with a second WebFetch call if it is what you want.
- Images, PDFs and other binary content are not converted; the result says what type came back.
- Results are cached for 15 minutes per URL, so fetching the same page again is cheap.

On failure: the result says what happened (unreachable host, HTTP error status, refused address, timeout). Check the URL, try the site's canonical address, or tell the person the page could not be read. Do not retry the same URL more than once.`;
