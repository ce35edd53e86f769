import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { locateRule, revokeRule } from './revoke-rule.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolplane-revoke-'));
  file = join(dir, 'settings.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ORIGINAL = `{
    "env": { "A": "1" },
    "permissions": {
        "allow": [
            "Bash(npm test)",
            "Bash(make:*)",
            "Read(./docs/**)"
        ],
        "deny": ["Bash(curl:*)"],
        "ask": [ "Bash(git push:*)" ]
    },
    "hooks": {}
}
`;

describe('revoking a rule from a settings file', () => {
  it('finds each rule with its list and line', () => {
    expect(locateRule(ORIGINAL, 'Bash(make:*)')).toEqual([{ behavior: 'allow', index: 1, line: 6 }]);
    expect(locateRule(ORIGINAL, ' Bash(curl:*) ')).toEqual([{ behavior: 'deny', index: 0, line: 9 }]);
    expect(locateRule(ORIGINAL, 'Bash(rm:*)')).toEqual([]);
  });

  it.each([
    ['the first', 'Bash(npm test)', ORIGINAL.replace('            "Bash(npm test)",\n', '')],
    ['a middle one', 'Bash(make:*)', ORIGINAL.replace('            "Bash(make:*)",\n', '')],
    ['the last', 'Read(./docs/**)', ORIGINAL.replace(',\n            "Read(./docs/**)"', '')],
  ])('removes %s element and changes nothing else in the text', async (_, rule, expected) => {
    await writeFile(file, ORIGINAL);
    expect(await revokeRule({ file, rule, behavior: 'allow' })).toBe(1);
    expect(await readFile(file, 'utf8')).toBe(expected);
  });

  it('closes up a list it empties, and leaves the rule in the other lists alone', async () => {
    await writeFile(file, ORIGINAL.replace('"deny": ["Bash(curl:*)"]', '"deny": ["Bash(curl:*)", "Bash(make:*)"]'));
    expect(await revokeRule({ file, rule: 'Bash(git push:*)', behavior: 'ask' })).toBe(1);
    expect(await revokeRule({ file, rule: 'Bash(make:*)', behavior: 'deny' })).toBe(1);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('"ask": []');
    expect(text).toContain('"deny": ["Bash(curl:*)"]');
    expect(text).toContain('            "Bash(make:*)",\n');
    expect(JSON.parse(text)).toMatchObject({ env: { A: '1' }, hooks: {} });
  });

  it('removes every copy, and a rule that is not there changes nothing', async () => {
    await writeFile(file, '{"permissions":{"allow":["X","Bash(ls)","X"]}}');
    expect(await revokeRule({ file, rule: 'X', behavior: 'allow' })).toBe(2);
    expect(await readFile(file, 'utf8')).toBe('{"permissions":{"allow":["Bash(ls)"]}}');
    expect(await revokeRule({ file, rule: 'Y', behavior: 'allow' })).toBe(0);
    expect(await readFile(file, 'utf8')).toBe('{"permissions":{"allow":["Bash(ls)"]}}');
  });

  it('keeps a rule whose text holds escapes intact when a neighbour goes', async () => {
    await writeFile(file, '{"permissions":{"allow":["Bash(echo \\"a,b\\")", "Bash(ls)"]}}');
    expect(await revokeRule({ file, rule: 'Bash(ls)', behavior: 'allow' })).toBe(1);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ permissions: { allow: ['Bash(echo "a,b")'] } });
  });

  it('leaves a file it cannot parse untouched', async () => {
    await writeFile(file, '{"permissions": {"allow": ["X",]}}');
    await expect(revokeRule({ file, rule: 'X', behavior: 'allow' })).rejects.toThrow(/settings/i);
    expect(await readFile(file, 'utf8')).toBe('{"permissions": {"allow": ["X",]}}');
  });
});
