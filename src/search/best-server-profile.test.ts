import { describe, expect, it } from 'vitest';
import { bestServerProfile } from './best-server-profile.js';
import { buildSearchIndex } from './build-search-index.js';
import { DEFAULT_RANKING_PARAMETERS, type RankingParameters } from './ranking-parameters.js';
import { searchTools } from './search-tools.js';
import type { ToolDescriptor } from './tool-descriptor.js';
import { tokenize } from './tokenize.js';

const catalog: ToolDescriptor[] = [
  { name: 'mcp__rail__book_train', description: 'Book a train ticket.' },
  { name: 'mcp__rail__find_hotel', description: 'Find a hotel room near a station.' },
  { name: 'mcp__rail__station_code', description: 'Look up the code of a city.' },
  { name: 'mcp__notes__write_note', description: 'Write a note.' },
  { name: 'train_model', description: 'Train a machine learning model on a dataset.' },
  { name: 'hotel_reviews', description: 'Read reviews of a hotel.' },
];

/** Query words as weighted index terms, the way the ranking reads them (weight 1 each). */
function termsOf(index: ReturnType<typeof buildSearchIndex>, text: string): Map<number, number> {
  const terms = new Map<number, number>();
  for (const term of tokenize(text)) {
    const id = index.terms.get(term);
    if (id !== undefined) terms.set(id, 1);
  }
  return terms;
}

describe('bestServerProfile', () => {
  const index = buildSearchIndex(catalog);

  it('picks the server whose tools together match the query, with its share of the score', () => {
    const match = bestServerProfile(index, termsOf(index, 'book a train and a hotel'));
    expect(match?.server).toBe(index.docServer[0]);
    expect(match?.bonus).toBeGreaterThan(0);
  });

  it('finds nothing when no profile matches or the weight is 0', () => {
    expect(bestServerProfile(index, termsOf(index, 'machine learning dataset'))).toBeUndefined();
    const off = buildSearchIndex(catalog, { parameters: { ...DEFAULT_RANKING_PARAMETERS, serverProfileWeight: 0 } });
    expect(bestServerProfile(off, termsOf(off, 'book a train and a hotel'))).toBeUndefined();
  });

  it('handles an index without servers', () => {
    const plain = buildSearchIndex([{ name: 'train_model', description: 'Train a model.' }]);
    expect(bestServerProfile(plain, termsOf(plain, 'train'))).toBeUndefined();
  });
});

describe('server profiles in the ranking', () => {
  const search = (parameters: Partial<RankingParameters>) => {
    const index = buildSearchIndex(catalog, { parameters: { ...DEFAULT_RANKING_PARAMETERS, ...parameters } });
    return searchTools(index, 'book a train and a hotel for three nights', { maxResults: 5 }).matches;
  };

  it('brings in a tool of the best-matching server that matches no word alone, after the first pick', () => {
    // Sibling re-ranking off, so that only the profile can bring the tool in.
    const matches = search({ siblingWeight: 0 });
    expect(matches).toContain('mcp__rail__station_code');
    expect(matches[0]).not.toBe('mcp__rail__station_code');
    expect(search({ siblingWeight: 0, serverProfileWeight: 0 })).not.toContain('mcp__rail__station_code');
  });
});

describe('query terms', () => {
  const tools: ToolDescriptor[] = [
    { name: 'write_file', description: 'Write content to a file.' },
    { name: 'summarize_text', description: 'Summarize a text.' },
    { name: 'report_2023', description: 'The 2023 report.' },
    { name: 'shop_sales', description: 'Sales of a shop.' },
  ];
  const search = (query: string, parameters: Partial<RankingParameters> = {}) => {
    const index = buildSearchIndex(tools, { parameters: { ...DEFAULT_RANKING_PARAMETERS, ...parameters } });
    return searchTools(index, query, { maxResults: 5 }).matches;
  };

  it('reads a file path as the word "file"', () => {
    const query = 'summarize the text and save it to /tmp/out/summary.md';
    expect(search(query)).toEqual(['summarize_text', 'write_file']);
    expect(search(query, { pathFileWeight: 0 })).toEqual(['summarize_text']);
  });

  it('counts a number for less than a word', () => {
    expect(search('sales in 2023')[0]).toBe('shop_sales');
    expect(search('sales in 2023', { numberTermWeight: 1 })[0]).toBe('report_2023');
  });
});
