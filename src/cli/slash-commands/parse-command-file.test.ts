import { describe, expect, it } from 'vitest';
import { parseCommandFile } from './parse-command-file.js';

describe('parseCommandFile', () => {
  it('reads a file without front matter as the prompt alone', () => {
    expect(parseCommandFile('Review the diff.\n')).toEqual({
      ok: true,
      file: { allowedTools: [], body: 'Review the diff.' },
    });
  });

  it('reads the front matter keys, quoted or not, with comments', () => {
    const parsed = parseCommandFile(
      [
        '---',
        '# a comment line',
        'description: "Fix issue #123 the house way"',
        "argument-hint: '[issue] [priority]'",
        'model: claude-haiku-4-5   # the cheap one',
        'allowed-tools: Bash(git add:*), Bash(echo a, b), Read',
        'disable-model-invocation: true',
        'unknown-key: kept out',
        '---',
        '',
        'Fix issue $1.',
      ].join('\n'),
    );
    expect(parsed).toEqual({
      ok: true,
      file: {
        description: 'Fix issue #123 the house way',
        argumentHint: '[issue] [priority]',
        model: 'claude-haiku-4-5',
        allowedTools: ['Bash(git add:*)', 'Bash(echo a, b)', 'Read'],
        body: 'Fix issue $1.',
      },
    });
  });

  it('reads allowed-tools as a flow list or a block list', () => {
    const flow = parseCommandFile('---\nallowed-tools: ["Bash(git status:*)", Read]\n---\nx');
    expect(flow).toMatchObject({ ok: true, file: { allowedTools: ['Bash(git status:*)', 'Read'] } });
    const block = parseCommandFile('---\nallowed-tools:\n  - Bash(git diff:*)\n  - "Grep"\n---\nx');
    expect(block).toMatchObject({ ok: true, file: { allowedTools: ['Bash(git diff:*)', 'Grep'] } });
  });

  it('fails with the line for an unclosed front matter, a line that is not key: value, a key twice, a list where one value goes', () => {
    expect(parseCommandFile('---\ndescription: x\nbody')).toMatchObject({ ok: false, line: 1 });
    expect(parseCommandFile('---\ndescription: x\nthis is not yaml\n---\nbody')).toMatchObject({
      ok: false,
      line: 3,
      message: 'the front matter is not valid YAML: Implicit map keys need to be followed by map values',
    });
    expect(parseCommandFile('---\nmodel: a\nmodel: b\n---\n')).toMatchObject({ ok: false, line: 3 });
    expect(parseCommandFile('---\nmodel: [a, b]\n---\n')).toMatchObject({ ok: false });
    expect(parseCommandFile('---\nallowed-tools: [Read\n---\n')).toMatchObject({ ok: false, line: 2 });
  });

  it("keeps __proto__ and constructor as plain data, never as the object's own machinery", () => {
    expect(parseCommandFile('---\n__proto__: x\nconstructor: y\ndescription: z\n---\nbody')).toEqual({
      ok: true,
      file: { description: 'z', allowedTools: [], body: 'body' },
    });
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });
});
