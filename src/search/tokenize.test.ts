import { describe, expect, it } from 'vitest';
import { cjkBigrams, normalizeWord, splitWords, tokenize } from './tokenize.js';

describe('splitWords', () => {
  it('splits CamelCase, including runs of capitals', () => {
    expect(splitWords('getHTTPResponseCode')).toEqual(['get', 'http', 'response', 'code']);
    expect(splitWords('NotebookEdit')).toEqual(['notebook', 'edit']);
  });

  it('splits snake_case, kebab-case and MCP names', () => {
    expect(splitWords('list_pull_requests')).toEqual(['list', 'pull', 'requests']);
    expect(splitWords('get-bilibili-rank')).toEqual(['get', 'bilibili', 'rank']);
    expect(splitWords('mcp__github__create_issue')).toEqual(['mcp', 'github', 'create', 'issue']);
  });

  it('keeps letters and digits together and drops punctuation', () => {
    expect(splitWords('Encode base64, then mp3!')).toEqual(['encode', 'base64', 'then', 'mp3']);
  });

  it('leaves CJK text to the bigrams', () => {
    expect(splitWords('搜索 web 结果')).toEqual(['web']);
  });
});

describe('cjkBigrams', () => {
  it('makes overlapping character pairs of each run', () => {
    expect(cjkBigrams('使用必应搜索')).toEqual(['使用', '用必', '必应', '应搜', '搜索']);
  });

  it('keeps a one-character run whole and separates runs', () => {
    expect(cjkBigrams('天 weather 八字')).toEqual(['天', '八字']);
  });

  it('handles Japanese kana and Korean', () => {
    expect(cjkBigrams('カタカナ')).toEqual(['カタ', 'タカ', 'カナ']);
    expect(cjkBigrams('검색')).toEqual(['검색']);
  });
});

describe('normalizeWord', () => {
  it('drops stop words and lone letters but keeps digits', () => {
    expect(normalizeWord('the')).toBeUndefined();
    expect(normalizeWord('x')).toBeUndefined();
    expect(normalizeWord('7')).toBe('7');
  });

  it('stems the rest', () => {
    expect(normalizeWord('files')).toBe('file');
  });
});

describe('tokenize', () => {
  it('gives queries and names the same terms', () => {
    expect(tokenize('Search the issues')).toEqual(tokenize('searchIssues'));
  });

  it('adds CJK bigrams after the words', () => {
    expect(tokenize('bing 搜索结果')).toEqual(['bing', '搜索', '索结', '结果']);
  });

  it('is empty for text with no words', () => {
    expect(tokenize(' , ; the of ')).toEqual([]);
  });
});
