import ignore from 'ignore';
import { describe, expect, test } from 'vitest';
import { escapePathForRule, parseRule } from './rule-parser.js';

describe('parseRule', () => {
  test.each([
    ['Bash', 'allow', { kind: 'tool', toolName: 'Bash' }],
    ['Bash(*)', 'deny', { kind: 'tool', toolName: 'Bash' }],
    ['Task', 'deny', { kind: 'tool', toolName: 'Agent' }],
    ['mcp__github', 'allow', { kind: 'mcp-server', server: 'github' }],
    ['mcp__github__*', 'allow', { kind: 'mcp-server', server: 'github' }],
    ['mcp__github__get_issue', 'allow', { kind: 'tool', toolName: 'mcp__github__get_issue' }],
    ['mcp__github__get_*', 'allow', { kind: 'tool-glob', pattern: 'mcp__github__get_*' }],
    // Split at the first __: server docs, tools whose names start with admin__ (not a server docs__admin).
    ['mcp__docs__admin__*', 'allow', { kind: 'tool-glob', pattern: 'mcp__docs__admin__*' }],
    ['mcp__docs__admin', 'allow', { kind: 'tool', toolName: 'mcp__docs__admin' }],
    ['mcp__my_docs__*', 'allow', { kind: 'mcp-server', server: 'my_docs' }],
    ['mcp__*', 'deny', { kind: 'tool-glob', pattern: 'mcp__*' }],
    ['Read(./src/**)', 'allow', { kind: 'path', toolName: 'Read', pattern: './src/**' }],
    ['Agent(Explore)', 'deny', { kind: 'agent', agentType: 'Explore' }],
    ['Agent(model:opus)', 'deny', { kind: 'param', toolName: 'Agent', key: 'model' }],
    ['Bash(run_in_background:true)', 'ask', { kind: 'param', toolName: 'Bash', key: 'run_in_background' }],
    ['Skill(deploy)', 'deny', { kind: 'opaque', toolName: 'Skill', specifier: 'deploy' }],
  ] as const)('%s as %s', (text, behavior, expected) => {
    expect(parseRule(text, behavior).rule).toMatchObject(expected);
  });

  test('Bash specifiers compile to patterns with the word boundary', () => {
    const { rule } = parseRule('Bash(npm run test:*)', 'allow');
    expect(rule?.kind).toBe('bash');
    if (rule?.kind !== 'bash') return;
    expect(rule.pattern.test('npm run test')).toBe(true);
    expect(rule.pattern.test('npm run test --watch')).toBe(true);
    expect(rule.pattern.test('npm run testing')).toBe(false);
  });

  test('WebFetch domain rules compile', () => {
    const { rule } = parseRule('WebFetch(domain:*.example.com)', 'allow');
    expect(rule?.kind === 'domain' && rule.pattern.test('a.example.com')).toBe(true);
  });

  test('parameter rules match with * as a wildcard', () => {
    const { rule } = parseRule('Agent(model:op*)', 'deny');
    expect(rule?.kind === 'param' && rule.test('opus')).toBe(true);
    expect(rule?.kind === 'param' && rule.test('haiku')).toBe(false);
  });

  test.each([
    ['', 'allow', 'error', /Empty/],
    ['Bash(ls', 'allow', 'error', /unclosed/],
    ['Ba sh', 'deny', 'error', /not a tool name/],
    ['(ls)', 'deny', 'error', /does not start with a tool name/],
    ['Bash()', 'deny', 'error', /empty specifier/],
    ['B*(ls)', 'deny', 'error', /glob cannot take a specifier/],
    ['*', 'allow', 'warning', /only after a literal mcp__/],
    ['mcp__*', 'allow', 'warning', /only after a literal mcp__/],
    ['B*', 'allow', 'warning', /only after a literal mcp__/],
    ['Bash(command:rm *)', 'deny', 'warning', /primary field/],
    ['Read(file_path:/etc/*)', 'deny', 'warning', /primary field/],
    ['Agent(model:opus)', 'allow', 'warning', /only deny and ask/],
    ['WebFetch(example.com)', 'allow', 'error', /domain:example.com/],
    ['Write(src/**)', 'allow', 'warning', /Edit\(src\/\*\*\)/],
    ['Glob(src/**)', 'allow', 'warning', /Read\(src\/\*\*\)/],
    ['Read(a\u0000b)', 'deny', 'error', /control character/],
  ] as const)('%j as %s is diagnosed (%s)', (text, behavior, severity, message) => {
    const { diagnostic } = parseRule(text, behavior);
    expect(diagnostic?.severity).toBe(severity);
    expect(diagnostic?.message).toMatch(message);
    expect(diagnostic?.rule).toBe(text);
  });

  test('rules whose names are prototype keys parse as plain names', () => {
    expect(parseRule('__proto__', 'deny').rule).toEqual({ kind: 'tool', toolName: '__proto__' });
    expect(parseRule('constructor', 'allow').rule).toEqual({ kind: 'tool', toolName: 'constructor' });
  });
});

describe('escapePathForRule', () => {
  test.each(['[2024-06] Reports', 'a*b?c', '!important', '#notes', 'trailing '])(
    '%j stays literal in gitignore syntax',
    (name) => {
      const matcher = ignore().add(escapePathForRule(name));
      expect(matcher.ignores(name)).toBe(true);
      expect(matcher.ignores('2 Reports')).toBe(false);
    },
  );
});
