import { describe, expect, it } from 'vitest';
import { ToolplaneError } from '../errors/toolplane-error.js';
import { parseJsonDocument } from './parse-json-document.js';
import { parseSettingsText } from './parse-settings-text.js';

function settingsError(text: string): ToolplaneError {
  try {
    parseSettingsText(text, '/p/.toolplane/settings.json');
  } catch (error) {
    if (error instanceof ToolplaneError) return error;
    throw error;
  }
  throw new Error('expected a SETTINGS_INVALID error');
}

describe('parseJsonDocument', () => {
  it('parses what JSON.parse parses', () => {
    const text = '{"a":[1,-2.5e3,true,false,null,"x\\n\\u0041\\/"],"b":{"c":{}},"d":[]}';
    const parsed = parseJsonDocument(text);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(JSON.parse(JSON.stringify(parsed.document.value))).toEqual(JSON.parse(text));
  });

  it('decodes every escape JSON has', () => {
    const text = '["\\b\\f\\n\\r\\t\\"\\\\\\/\\u00e9\\uD83D\\uDE00"]';
    const parsed = parseJsonDocument(text);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.document.value).toEqual(JSON.parse(text));
  });

  it.each([
    ['{"a":1,}', 'unexpected "}", expected a double-quoted property name'],
    ['[1 2]', "unexpected \"2\", expected ',' or ']'"],
    ['{"a":1 "b":2}', "unexpected \"\\\"\", expected ',' or '}'"],
    ['"abc', 'unterminated string'],
    ['{"a":"\\x"}', 'invalid escape in string'],
    ['{"a":"\\u12G4"}', 'invalid \\u escape'],
    ['{} extra', 'unexpected "e" after the JSON value'],
  ])('says what is wrong with %j', (text, message) => {
    expect(parseJsonDocument(text)).toMatchObject({ ok: false, message });
  });

  it('reports the line and column of a syntax error', () => {
    const parsed = parseJsonDocument('{\n  "a": 1,\n  "b": }\n');
    expect(parsed).toMatchObject({ ok: false, position: { line: 3, column: 8 } });
  });

  it.each([
    ['{"a":1,}', 1, 8],
    ['{"a" 1}', 1, 6],
    ['[1 2]', 1, 4],
    ['"abc', 1, 1],
    ['{"a":"\u0001"}', 1, 7],
    ['{"a":"\\x"}', 1, 7],
    ['{"a":"\\u12G4"}', 1, 7],
    ['{} extra', 1, 4],
    ['{"a":tru}', 1, 6],
    ['', 1, 1],
  ])('rejects %j at %i:%i', (text, line, column) => {
    expect(parseJsonDocument(text)).toMatchObject({ ok: false, position: { line, column } });
  });

  it('treats __proto__ and toString as data and records duplicate keys', () => {
    const parsed = parseJsonDocument('{"__proto__":{"x":1},"toString":2,"a":1,"a":3}');
    if (!parsed.ok) throw new Error(parsed.message);
    const value = parsed.document.value as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__', 'toString', 'a']);
    expect(value['a']).toBe(3);
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
    expect(parsed.document.duplicateKeys).toEqual([{ key: 'a', position: { line: 1, column: 41 } }]);
  });

  it('fails cleanly on a document nested too deeply', () => {
    expect(parseJsonDocument('['.repeat(200_000))).toMatchObject({ ok: false });
  });

  it('skips a byte-order mark', () => {
    expect(parseJsonDocument('\uFEFF{"a":1}')).toMatchObject({ ok: true });
  });
});

describe('parseSettingsText', () => {
  it('keeps unknown keys and reads the known ones', () => {
    const { settings } = parseSettingsText(
      JSON.stringify({ model: 'x', permissions: { allow: ['Read'], deny: ['Bash(rm *)'], extra: 1 } }),
      'f',
    );
    expect(settings.permissions?.deny).toEqual(['Bash(rm *)']);
    expect((settings as Record<string, unknown>)['model']).toBe('x');
  });

  it('counts an empty file as no settings', () => {
    expect(parseSettingsText('  \n', 'f').settings).toEqual({});
  });

  it('names the file and the position of bad JSON', () => {
    const error = settingsError('{\n  "permissions": {\n    "deny": ["Bash(rm *)",]\n  }\n}');
    expect(error.code).toBe('SETTINGS_INVALID');
    expect(error.message).toContain('/p/.toolplane/settings.json');
    expect(error.message).toContain('3:27');
  });

  it('names the position of a value of the wrong shape', () => {
    const error = settingsError('{\n  "permissions": {\n    "deny": ["Read",\n      42]\n  }\n}');
    expect(error.message).toContain('4:7');
    expect(error.message).toContain('permissions.deny.1');
  });

  it('rejects a command hook without a command', () => {
    const error = settingsError('{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command"}]}]}}');
    expect(error.message).toContain('hooks.PreToolUse.0.hooks.0');
    expect(error.message).toContain('1:52');
  });

  it('rejects a timeout that is not a positive number', () => {
    expect(
      settingsError('{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":-1}]}]}}').message,
    ).toContain('timeout');
  });

  it('warns about a key written twice, which would otherwise drop its first list silently', () => {
    const { warnings, settings } = parseSettingsText('{"permissions":{"deny":["Bash"],"deny":["Read"]}}', 'f');
    expect(settings.permissions?.deny).toEqual(['Read']);
    expect(warnings).toEqual([
      { file: 'f', position: { line: 1, column: 33 }, message: expect.stringContaining('permissions.deny') as string },
    ]);
  });
});
