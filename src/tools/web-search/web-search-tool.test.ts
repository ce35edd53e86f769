import { describe, expect, it } from 'vitest';
import { createServices } from '../../contract/services.js';
import type { ToolCallContext } from '../../contract/tool.js';
import { createCallContext } from '../../testing/call-context.js';
import { webSearchTool } from './web-search-tool.js';
import { webSearchService } from './web-search-service.js';

const context = (services = createServices()): ToolCallContext => createCallContext({ services });

describe('WebSearch', () => {
  it('refuses allowed and blocked domains together', async () => {
    const services = createServices().set(webSearchService, { search: async () => ({ hits: [], text: '' }) });
    expect(
      await webSearchTool.validateInput(
        { query: 'node', allowed_domains: ['a.com'], blocked_domains: ['b.com'] },
        context(services),
      ),
    ).toEqual({
      ok: false,
      message: 'Give allowed_domains or blocked_domains, not both.',
    });
  });

  it('says so when the provider has no web search', async () => {
    expect(await webSearchTool.validateInput({ query: 'node' }, context())).toMatchObject({
      ok: false,
      message: expect.stringContaining('not available'),
    });
  });

  it('wraps the backend answer as an ordinary result with its sources', async () => {
    const requests: unknown[] = [];
    const services = createServices().set(webSearchService, {
      search: async (request) => {
        requests.push(request);
        return { hits: [{ title: 'Node 20', url: 'https://nodejs.org/en' }], text: 'Node 20 is LTS.' };
      },
    });
    const output = await webSearchTool.call({ query: 'node lts', allowed_domains: ['nodejs.org'] }, context(services));
    expect(requests).toEqual([{ query: 'node lts', allowedDomains: ['nodejs.org'] }]);
    expect(webSearchTool.mapResult(output, 't')).toEqual({
      content: 'Node 20 is LTS.\n\nSources:\n1. Node 20 — https://nodejs.org/en',
    });
  });
});
