import { describe, expect, it } from 'vitest';
import { htmlToMarkdown, toPageContent } from './page-content.js';

describe('htmlToMarkdown', () => {
  it('drops scripts, styles, comments and templates, whatever their case or attributes', () => {
    const html =
      '<p>before</p><SCRIPT type="module">if (a < b) { x("</p>") }</SCRIPT ><!-- <p>hidden</p> -->' +
      '<style>p{}</style><template><p>t</p></template><noscript>ns</noscript><p>after</p>';
    expect(htmlToMarkdown(html)).toBe('before\n\nafter');
  });

  it('treats an unclosed script or comment as running to the end, as a browser does', () => {
    expect(htmlToMarkdown('<p>shown</p><script>never closed <p>no</p>')).toBe('shown');
    expect(htmlToMarkdown('<p>shown</p><!-- never closed <p>no</p>')).toBe('shown');
  });

  it('keeps text next to look-alike tags', () => {
    expect(htmlToMarkdown('<p>a <scripted>b</scripted> c</p>')).toBe('a b c');
  });
});

describe('toPageContent', () => {
  it('decodes by the declared or meta charset and sniffs untyped bodies', () => {
    const latin = Buffer.from('<meta charset="iso-8859-1"><p>caf\xe9</p>', 'latin1');
    expect(toPageContent(latin, 'text/html')).toEqual({
      kind: 'text',
      format: 'markdown',
      mediaType: 'text/html',
      text: 'café',
    });
    expect(toPageContent(Buffer.from('x'), 'text/plain; charset=no-such-charset')).toMatchObject({ text: 'x' });
    expect(toPageContent(Buffer.from('<!doctype html><p>hi</p>'), undefined)).toMatchObject({
      format: 'markdown',
      text: 'hi',
    });
    expect(toPageContent(Buffer.from([0xff, 0xfe, 0x00]), undefined)).toEqual({
      kind: 'binary',
      mediaType: 'application/octet-stream',
    });
    expect(toPageContent(Buffer.from([0xc3, 0x28]), undefined)).toEqual({
      kind: 'binary',
      mediaType: 'application/octet-stream',
    });
    expect(toPageContent(Buffer.from('{"a":1}'), 'application/problem+json')).toMatchObject({
      format: 'text',
      text: '{"a":1}',
    });
    expect(toPageContent(Buffer.from('%PDF'), 'application/pdf')).toEqual({
      kind: 'binary',
      mediaType: 'application/pdf',
    });
  });
});
