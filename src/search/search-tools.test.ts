import { describe, expect, it } from 'vitest';
import { buildSearchIndex } from './build-search-index.js';
import { parseToolSearchQuery } from './parse-tool-search-query.js';
import { searchTools } from './search-tools.js';
import type { ToolDescriptor } from './tool-descriptor.js';

const object = (properties: Record<string, { description?: string; enum?: string[] }>) => ({
  type: 'object',
  properties,
});

const catalog: ToolDescriptor[] = [
  {
    name: 'Read',
    description: 'Reads a file from the local filesystem.',
    inputSchema: object({ file_path: { description: 'Absolute path' } }),
  },
  { name: 'NotebookEdit', description: 'Replaces the contents of a cell.', searchHint: 'jupyter ipynb notebook' },
  { name: 'WebFetch', description: 'Fetches content from a URL and converts it to markdown.' },
  {
    name: 'mcp__slack__send_message',
    description: 'Send a message to a Slack channel.',
    inputSchema: object({ channel: { description: 'Channel id' }, text: { description: 'Message text' } }),
  },
  { name: 'mcp__slack__list_channels', description: 'List the channels of the workspace.' },
  {
    name: 'mcp__github__create_issue',
    description: 'Create a new issue in a GitHub repository.',
    inputSchema: object({ owner: { description: 'Repository owner' }, repo: { description: 'Repository name' } }),
  },
  { name: 'mcp__github__list_pull_requests', description: 'List pull requests of a GitHub repository.' },
  { name: 'mcp__bing__bing_search', description: '使用必应搜索指定的关键词，并返回搜索结果列表' },
  {
    name: 'convert_units',
    description: 'Converts a quantity between two units.',
    inputSchema: object({
      from_unit: { description: 'Unit of the input, such as celsius' },
      mode: { enum: ['metric', 'imperial'] },
    }),
  },
  { name: 'alpha_tool', description: 'Works on a spreadsheet among many other documents, files, images and records.' },
  { name: 'beta_tool', description: 'Works on documents, files, images and records.', searchHint: 'spreadsheet' },
];

const index = buildSearchIndex(catalog);
const search = (query: string, maxResults = 5) => searchTools(index, query, { maxResults });

describe('parseToolSearchQuery', () => {
  it('reads select: with trimmed, de-duplicated names', () => {
    expect(parseToolSearchQuery(' SELECT: Read , Edit,,Read ')).toEqual({ kind: 'select', names: ['Read', 'Edit'] });
  });

  it('reads required words, a name prefix and free words', () => {
    expect(parseToolSearchQuery('mcp__slack +urgent send  message')).toEqual({
      kind: 'keywords',
      text: 'send message',
      required: ['urgent'],
      namePrefix: 'mcp__slack',
    });
  });

  it('keeps a lone plus sign as a word', () => {
    expect(parseToolSearchQuery('a + b')).toEqual({
      kind: 'keywords',
      text: 'a + b',
      required: [],
      namePrefix: undefined,
    });
  });
});

describe('searchTools', () => {
  describe('select:', () => {
    it('returns the named tools in the order given, ignoring case', () => {
      expect(search('select:webfetch,Read')).toEqual({ matches: ['WebFetch', 'Read'], unknownNames: [] });
    });

    it('reports names the index does not hold', () => {
      expect(search('select:Read,Nope')).toEqual({ matches: ['Read'], unknownNames: ['Nope'] });
    });

    it('stops at maxResults', () => {
      expect(search('select:Read,WebFetch,NotebookEdit', 2).matches).toEqual(['Read', 'WebFetch']);
    });
  });

  describe('pasted data', () => {
    it('does not match tools on the fragments of a base64 blob', () => {
      const blob = 'iVBORw0KGgoSlackChannelSendMessageAAAANSUhEUgAAAgAAAAIACAYAAAD0eNT6';
      expect(search(`what does this image show? ${blob}`).matches).toEqual(
        search('what does this image show?').matches,
      );
    });
  });

  describe('mcp__server prefix', () => {
    it('lists every tool of the server in index order when no words follow', () => {
      expect(search('mcp__slack').matches).toEqual(['mcp__slack__send_message', 'mcp__slack__list_channels']);
    });

    it('ranks the server tools by the words that follow, keeping those that match nothing', () => {
      expect(search('mcp__slack channels').matches).toEqual(['mcp__slack__list_channels', 'mcp__slack__send_message']);
    });

    it('reads a server prefix as that server only, and a longer prefix as a name prefix', () => {
      const servers = buildSearchIndex([
        { name: 'mcp__git__log', description: 'Shows the commit log.' },
        { name: 'mcp__github__get_commit', description: 'Gets a commit.' },
        { name: 'mcp__github__get_issue', description: 'Gets an issue.' },
      ]);
      expect(searchTools(servers, 'mcp__git', { maxResults: 5 }).matches).toEqual(['mcp__git__log']);
      expect(searchTools(servers, 'mcp__git commit', { maxResults: 5 }).matches).toEqual(['mcp__git__log']);
      expect(searchTools(servers, 'mcp__github__get', { maxResults: 5 }).matches).toEqual([
        'mcp__github__get_commit',
        'mcp__github__get_issue',
      ]);
      expect(searchTools(servers, 'mcp__gith', { maxResults: 5 }).matches).toHaveLength(2);
    });

    it('falls back to keywords when no tool has the prefix', () => {
      expect(search('mcp__slak send message').matches[0]).toBe('mcp__slack__send_message');
    });
  });

  describe('+required words', () => {
    it('keeps only tools containing every required word, ranked by the others', () => {
      expect(search('+github pull list').matches).toEqual([
        'mcp__github__list_pull_requests',
        'mcp__github__create_issue',
      ]);
    });

    it('finds nothing when a required word appears nowhere', () => {
      expect(search('+kubernetes list').matches).toEqual([]);
    });

    it('combines with a name prefix', () => {
      expect(search('mcp__github +pull').matches).toEqual(['mcp__github__list_pull_requests']);
    });
  });

  describe('keywords', () => {
    it('matches words split out of tool names', () => {
      expect(search('send a slack message').matches[0]).toBe('mcp__slack__send_message');
    });

    it('weights the search hint above the description', () => {
      const matches = search('spreadsheet').matches;
      expect(matches.indexOf('beta_tool')).toBeLessThan(matches.indexOf('alpha_tool'));
      expect(search('jupyter').matches).toEqual(['NotebookEdit']);
    });

    it('searches parameter names, descriptions and enum values', () => {
      expect(search('celsius').matches).toEqual(['convert_units']);
      expect(search('imperial').matches).toEqual(['convert_units']);
    });

    it('matches Chinese descriptions by character pairs', () => {
      expect(search('必应搜索').matches[0]).toBe('mcp__bing__bing_search');
    });

    it('puts a tool named by an identifier in the query first', () => {
      expect(search('slack channels, or use mcp__github__create_issue').matches[0]).toBe('mcp__github__create_issue');
      expect(search('read').matches[0]).toBe('Read');
    });

    it('ranks prose containing a short tool name on its merits', () => {
      const small = buildSearchIndex([
        { name: 'predict', description: 'Runs a trained model.' },
        { name: 'forecast_weather', description: 'Predict the weather of a city from forecasts.' },
      ]);
      expect(searchTools(small, 'predict the weather in Paris', { maxResults: 2 }).matches[0]).toBe('forecast_weather');
    });

    it('covers each need of a query that asks for several things', () => {
      const top = search('send a slack message and create a github issue', 2).matches;
      expect(new Set(top)).toEqual(new Set(['mcp__slack__send_message', 'mcp__github__create_issue']));
    });

    it('returns nothing for words no tool has, stop words only, or no room', () => {
      expect(search('kubernetes').matches).toEqual([]);
      expect(search('the of and').matches).toEqual([]);
      expect(search('slack', 0).matches).toEqual([]);
    });

    it('handles an empty index', () => {
      expect(searchTools(buildSearchIndex([]), 'anything', { maxResults: 5 }).matches).toEqual([]);
    });
  });
});
