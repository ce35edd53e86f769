import { existsSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockAnthropicServer } from '../../src/testing/mock-anthropic-server.js';
import { useCliProject } from './cli-project.js';
import { CLI, isolatedEnv, runCli } from './run-cli.js';

/** Debian's Chromium (`apt-get install chromium`); .ci/run installs it. No browser is downloaded. */
const CHROMIUM = process.env.TOOLPLANE_CHROMIUM ?? '/usr/bin/chromium';

/** What the test reads of page elements inside the browser (this project's types have no DOM). */
type Element = {
  hidden: boolean;
  open: boolean;
  dataset: Record<string, string | undefined>;
  querySelector(selector: string): { textContent: string | null } | null;
};

type Entry = { toolUseId: string; tool: string; status: string; asked: boolean; result: { isError: boolean } };

/** Text a hostile file could hold: it must show as text on the page and never run. */
const HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">**bold**';

describe('toolplane sessions trace', () => {
  const context = useCliProject('toolplane-trace-');
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`Chromium is needed for this test: apt-get install chromium (looked for ${CHROMIUM})`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  const env = (extra: Record<string, string> = {}) =>
    isolatedEnv(context.home, {
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: context.server!.baseURL,
      TOOLPLANE_TRUST_PROJECT: '1',
      ...extra,
    });

  /** One turn through the real Agent SDK: the host allows `touch made.txt` when asked and refuses anything else. */
  async function turn(prompt: string, resume?: string): Promise<string> {
    const messages: SDKMessage[] = [];
    for await (const message of query({
      prompt,
      options: {
        pathToClaudeCodeExecutable: CLI,
        executable: 'node',
        cwd: context.project,
        env: env(),
        ...(resume === undefined ? {} : { resume }),
        canUseTool: (_name, input) =>
          Promise.resolve(
            JSON.stringify(input).includes('made.txt')
              ? { behavior: 'allow', updatedInput: input }
              : { behavior: 'deny', message: 'not that one' },
          ),
      },
    }))
      messages.push(message);
    return messages.find((message) => message.type === 'result')!.session_id;
  }

  async function openPage(path: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => {
      if (!request.url().startsWith('file:')) problems.push(`request to ${request.url()}`);
    });
    await page.goto(`file://${path}`);
    return { page, problems };
  }

  const visibleIds = (page: Page) =>
    page.$$eval('details.call', (rows) =>
      rows.filter((row) => !(row as unknown as Element).hidden).map((row) => (row as unknown as Element).dataset['id']),
    );

  it('writes one self-contained page whose rows, decisions, filters and timeline match the transcript', async () => {
    await writeFile(
      join(context.project, '.claude', 'settings.json'),
      JSON.stringify({
        permissions: { deny: ['Bash(curl:*)'], allow: ['Bash(seq:*)', 'Bash(ls:*)'] },
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [{ type: 'command', command: `grep -q '"rm ' && { echo 'no rm here' >&2; exit 2; } || exit 0` }],
            },
          ],
        },
      }),
    );
    await writeFile(join(context.project, 'notes.txt'), HOSTILE);
    await writeFile(join(context.project, 'b.txt'), 'plain\n');
    context.server = await startMockAnthropicServer({
      replies: [
        {
          content: [
            {
              type: 'tool_use',
              id: 'read-notes',
              name: 'Read',
              input: { file_path: join(context.project, 'notes.txt') },
            },
            { type: 'tool_use', id: 'read-b', name: 'Read', input: { file_path: join(context.project, 'b.txt') } },
          ],
        },
        {
          content: [
            { type: 'tool_use', id: 'curl', name: 'Bash', input: { command: 'curl -s http://127.0.0.1:9/' } },
            { type: 'tool_use', id: 'rm', name: 'Bash', input: { command: 'rm -f b.txt' } },
            { type: 'tool_use', id: 'missing', name: 'Bash', input: { command: 'ls /no/such/folder' } },
          ],
        },
        {
          content: [
            { type: 'tool_use', id: 'made', name: 'Bash', input: { command: 'touch made.txt' } },
            { type: 'tool_use', id: 'other', name: 'Bash', input: { command: 'touch other.txt' } },
          ],
        },
        { content: [{ type: 'text', text: 'done' }] },
        { content: [{ type: 'tool_use', id: 'many', name: 'Bash', input: { command: 'seq 1 300000' } }] },
        { content: [{ type: 'text', text: 'counted' }] },
      ],
    });
    const sessionId = await turn('look around');
    expect(await turn('count', sessionId)).toBe(sessionId);
    expect(existsSync(join(context.project, 'made.txt'))).toBe(true);
    expect(existsSync(join(context.project, 'other.txt'))).toBe(false);

    const run = await runCli(['sessions', 'trace', sessionId], { cwd: context.project, env: env() });
    expect(run.code, run.stderr).toBe(0);
    const pagePath = run.stdout.trim();
    const transcript = join(dirname(pagePath), `${sessionId}.jsonl`);
    // Beside the transcript, readable by its owner only.
    expect(pagePath).toBe(join(dirname(transcript), `${sessionId}.trace.html`));
    expect((await stat(pagePath)).mode & 0o777).toBe(0o600);
    const html = await readFile(pagePath, 'utf8');
    expect(html.match(/<script[^>]*\bsrc=|<link\b|https?:\/\/(?!127\.0\.0\.1)\S*/g)).toBeNull();

    const ledger = (await readFile(transcript, 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; event?: Entry })
      .flatMap((line) => (line.type === 'event' && line.event?.toolUseId !== undefined ? [line.event] : []));
    expect(ledger.map((entry) => entry.toolUseId).sort()).toEqual(
      ['curl', 'made', 'many', 'missing', 'other', 'read-b', 'read-notes', 'rm'].sort(),
    );

    const { page, problems } = await openPage(pagePath);
    // For the README's picture: TOOLPLANE_TRACE_SCREENSHOT=docs/trace-page.png npx vitest run this file.
    if (process.env.TOOLPLANE_TRACE_SCREENSHOT !== undefined) {
      await page.setViewportSize({ width: 1040, height: 820 });
      await page.screenshot({ path: process.env.TOOLPLANE_TRACE_SCREENSHOT });
    }
    const rows = await page.$$eval('details.call', (elements) =>
      elements.map((row) => ({
        id: (row as unknown as Element).dataset['id'],
        status: row.querySelector('.status')?.textContent,
        gate: row.querySelector('.gate')?.textContent,
        why: row.querySelector('.why')?.textContent,
      })),
    );
    // One row per call, each with the status the ledger recorded.
    expect(rows.map((row) => [row.id, row.status]).sort()).toEqual(
      ledger.map((entry) => [entry.toolUseId, entry.status]).sort(),
    );
    const row = (id: string) => rows.find((each) => each.id === id)!;
    expect(row('curl')).toMatchObject({ status: 'denied', gate: 'rule' });
    expect(row('curl').why).toContain(`Bash(curl:*) from ${join(context.project, '.claude', 'settings.json')}`);
    expect(row('rm')).toMatchObject({ status: 'hook-blocked', gate: 'hook' });
    expect(row('rm').why).toContain('no rm here');
    expect(row('made')).toMatchObject({ status: 'success', gate: 'person' });
    expect(row('made').why).toContain('allowed when asked');
    expect(row('other')).toMatchObject({ status: 'denied', gate: 'person' });
    expect(row('other').why).toContain('not that one');
    expect(row('other').why).not.toContain('allowed');
    expect(row('read-notes')).toMatchObject({ status: 'success', gate: 'read-only check' });

    // The hostile file shows as text and nothing of it ran.
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.$$('details.call img')).toHaveLength(0);
    expect(await page.textContent('#call-0 pre.result')).toContain('<script>window.__pwned = 1</script>');

    // Filters: denied, asked, errors, by tool.
    await page.selectOption('#show', 'denied');
    expect((await visibleIds(page)).sort()).toEqual(['curl', 'other', 'rm']);
    expect(await page.textContent('#shown')).toBe('3');
    await page.selectOption('#show', 'asked');
    expect((await visibleIds(page)).sort()).toEqual(['made', 'other']);
    await page.selectOption('#show', 'errors');
    expect(await visibleIds(page)).toEqual(['missing']);
    await page.selectOption('#show', 'all');
    await page.selectOption('#tool', 'Read');
    expect((await visibleIds(page)).sort()).toEqual(['read-b', 'read-notes']);
    expect(await page.$$eval('.lane.dim', (lanes) => lanes.length)).toBe(6);
    await page.selectOption('#tool', '');

    // A row expands to its input; the spilled output names its file.
    const many = page.locator('details.call[data-id="many"]');
    expect(await many.evaluate((element) => (element as unknown as Element).open)).toBe(false);
    await many.locator('summary').click();
    expect(await many.evaluate((element) => (element as unknown as Element).open)).toBe(true);
    expect(await many.locator('pre.input').textContent()).toContain('seq 1 300000');
    const savedTo = await many.locator('dt:text-is("saved to") + dd').textContent();
    expect(await readFile(savedTo!, 'utf8')).toContain('\n300000');

    // Two turns, each with a timeline: a lane per call, the parallel reads in one band.
    expect(await page.$$eval('section.turn', (turns) => turns.length)).toBe(2);
    expect(await page.$$eval('section.turn:first-of-type .lane', (lanes) => lanes.length)).toBe(7);
    // The two reads ran in parallel (batch 1); the commands, not read-only, ran one at a time.
    expect(
      await page.$$eval('section.turn:first-of-type rect.band', (bands) => bands.map((band) => band.textContent)),
    ).toEqual(['batch 1: 2 calls free to run in parallel']);
    // A lane links to its row, which opens.
    await page.click('section.turn:first-of-type .lane[data-call="2"]');
    expect(await page.locator('#call-2').evaluate((element) => (element as unknown as Element).open)).toBe(true);

    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('writes to --out, reads a transcript without a ledger, and refuses an unknown session', async () => {
    const old = join(context.home, 'old.jsonl');
    await writeFile(
      old,
      [
        { type: 'session', sessionId: 'old-one', cwd: context.project, createdAt: '2026-01-01T00:00:00.000Z' },
        { type: 'message', message: { role: 'user', content: 'list it' }, timestamp: '2026-01-01T00:00:01.000Z' },
        {
          type: 'message',
          message: {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 't1', name: 'Glob', input: { pattern: '*' } }],
          },
          timestamp: '2026-01-01T00:00:02.000Z',
        },
        {
          type: 'message',
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'a.txt' }] },
          timestamp: '2026-01-01T00:00:03.000Z',
        },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n')
        .concat('\nnot json\n'),
    );
    const out = join(context.home, 'page.html');
    const run = await runCli(['sessions', 'trace', old, '--out', out], {
      cwd: context.project,
      env: isolatedEnv(context.home),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(out);
    const { page, problems } = await openPage(out);
    expect(await page.textContent('h1')).toBe('Session old-one');
    expect(await page.textContent('.meta')).toContain('no decision ledger');
    expect(await page.textContent('.meta')).toContain('1 unreadable line skipped');
    expect(
      await page.$$eval('details.call', (rows) => rows.map((row) => row.querySelector('.status')?.textContent)),
    ).toEqual(['ran']);
    expect(await page.$$('svg.timeline')).toHaveLength(0);
    expect(problems).toEqual([]);
    await page.close();

    const unknown = await runCli(['sessions', 'trace', 'no-such-session'], {
      cwd: context.project,
      env: isolatedEnv(context.home),
    });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no session no-such-session');
    const usage = await runCli(['sessions', 'trace'], { cwd: context.project, env: isolatedEnv(context.home) });
    expect(usage.code).toBe(2);
  }, 30_000);
});
