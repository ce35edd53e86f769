import { z } from 'zod';
import { defineBuiltinTool } from '../../contract/define-builtin-tool.js';
import { webSearchService, type WebSearchResponse } from './web-search-service.js';

const domain = z
  .string()
  .min(1)
  .regex(/^[A-Za-z0-9.-]+$/, 'a domain name like example.com');
const inputSchema = z.strictObject({
  query: z.string().min(2).describe('The search query.'),
  allowed_domains: z.array(domain).optional().describe('Only return results from these domains.'),
  blocked_domains: z.array(domain).optional().describe('Never return results from these domains.'),
});

/**
 * WebSearch: a nested request to the provider's server-side web search, wrapped as an ordinary
 * result. Giving both allowed and blocked domains is refused; a provider without the capability
 * gives a clear error result.
 */
export const webSearchTool = defineBuiltinTool('WebSearch', {
  name: 'WebSearch',
  optionalServices: [webSearchService],
  inputSchema,
  prompt: `Searches the web and returns result titles and links with a short answer written from them.

Use it for information newer than your training or not in the project: current documentation, release notes, error messages others have met. Prefer WebFetch when you already know the URL. Cite the links you rely on in your answer.

allowed_domains and blocked_domains narrow the results; give one or the other, not both.`,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  describeInput: (input) => `search: ${input.query}`,
  validateInput: (input, context) => {
    if (input.allowed_domains?.length && input.blocked_domains?.length) {
      return { ok: false, message: 'Give allowed_domains or blocked_domains, not both.' };
    }
    if (!context.services.get(webSearchService)) {
      return {
        ok: false,
        message: 'Web search is not available with this model provider. Use WebFetch with a known URL instead.',
      };
    }
    return { ok: true };
  },
  async call(input, context): Promise<WebSearchResponse> {
    const backend = context.services.get(webSearchService);
    if (!backend) throw new Error('Web search is not available with this model provider.');
    return backend.search(
      {
        query: input.query,
        ...(input.allowed_domains ? { allowedDomains: input.allowed_domains } : {}),
        ...(input.blocked_domains ? { blockedDomains: input.blocked_domains } : {}),
      },
      context.signal,
    );
  },
  mapResult: (output) => {
    const links = output.hits.map((hit, index) => `${index + 1}. ${hit.title} — ${hit.url}`).join('\n');
    return { content: `${output.text.trim()}\n\nSources:\n${links || '(no results)'}`.trim() };
  },
});
