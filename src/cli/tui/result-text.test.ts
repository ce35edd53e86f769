import { describe, expect, it } from 'vitest';
import { outcomeText } from '../../execution/outcome-text.js';
import { countLines, describeResult, previewLines, resultPlainText, textForPeople } from './result-text.js';

const block = (content: string) => ({ type: 'tool_result' as const, tool_use_id: 't', content });

describe('textForPeople', () => {
  it('drops the tool_use_error wrapper and the sentences that only steer the model', () => {
    const denied = outcomeText({ status: 'denied', message: '', reason: { kind: 'mode', mode: 'dontAsk' } }, 'Bash');
    expect(textForPeople(denied)).toBe('Permission to use Bash was denied (permission mode dontAsk).');
    const invalid = outcomeText({ status: 'invalid-input', message: 'file_path: Required' }, 'Read');
    expect(textForPeople(invalid)).toBe(
      'InputValidationError: the input for Read does not match its schema.\nfile_path: Required',
    );
    expect(textForPeople(outcomeText({ status: 'unknown-tool' }, 'Nope'))).toBe('No tool named "Nope" is available.');
    expect(textForPeople(outcomeText({ status: 'timeout', timeoutMs: 50 }, 'Bash'))).toBe(
      'Bash did not finish within 50 ms and was stopped.',
    );
  });

  it("keeps the tool's own words, expands tabs, trims the end, and names an empty result", () => {
    expect(textForPeople('ls: cannot access x\nExit code 2\n\n')).toBe('ls: cannot access x\nExit code 2');
    expect(textForPeople('     1\tconst a = 1;')).toBe('     1    const a = 1;');
    expect(textForPeople('(Bash completed with no output)')).toBe('(no output)');
  });
});

describe('describeResult', () => {
  it('counts the lines of a plain result', () => {
    expect(describeResult(block('a\nb\nc'))).toEqual({ text: 'a\nb\nc', lineCount: 3 });
    expect(describeResult(block(''))).toEqual({ text: '', lineCount: 0 });
  });

  it('replaces the note of a saved output with its path and size, keeping the preview as the text', () => {
    const note =
      '[Output too large to show: 588895 bytes. The full output is saved in /s/tool-results/x.log; read it in parts (Read with offset and limit) or search it with Grep. The first 8 characters follow.]';
    expect(describeResult(block(`${note}\n1\n2\n3\n4`))).toEqual({
      text: '1\n2\n3\n4',
      lineCount: 4,
      savedPath: '/s/tool-results/x.log',
      savedSize: '588895 bytes',
    });
  });

  it('shows a cut output with nowhere to save it without a path, and without the advice to the model', () => {
    const note =
      '[Output too large to show: 9000 characters; only the first 3 characters follow. Narrow the request to see the rest.]';
    expect(describeResult(block(`${note}\nabc`))).toEqual({ text: 'abc', lineCount: 1 });
  });

  it('reads text parts of a list, names the tools loaded, and names the others', () => {
    expect(
      resultPlainText([
        { type: 'text', text: 'a' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: '' } },
        { type: 'tool_reference', tool_name: 'mcp__x__y' },
      ]),
    ).toBe('a\n[image]\nloaded mcp__x__y');
  });
});

describe('previewLines and countLines', () => {
  it('keeps the first lines and counts the rest; one line more than the limit is shown, not counted', () => {
    expect(previewLines('1\n2\n3\n4\n5\n6', 4)).toEqual({ lines: ['1', '2', '3', '4'], more: 2 });
    expect(previewLines('1\n2\n3\n4\n5', 4)).toEqual({ lines: ['1', '2', '3', '4', '5'], more: 0 });
    expect(previewLines('', 4)).toEqual({ lines: [], more: 0 });
    expect(countLines('')).toBe(0);
    expect(countLines('a\nb')).toBe(2);
  });
});
