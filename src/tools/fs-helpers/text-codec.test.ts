import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeText, detectLineEnding, encodeText } from './text-codec.js';

describe('text codec', () => {
  it('detects CRLF only when every break is CRLF', () => {
    expect(detectLineEnding('a\r\nb\r\n')).toBe('crlf');
    expect(detectLineEnding('a\r\nb\n')).toBe('lf');
    expect(detectLineEnding('a\nb')).toBe('lf');
    expect(detectLineEnding('')).toBe('lf');
    expect(detectLineEnding('a\r\r\nb\r\n')).toBe('lf');
  });

  it('round-trips text with carriage returns of its own byte for byte', () => {
    const bytes = Buffer.from('a\r\r\nb\r\nc\rd\r\n');
    const decoded = decodeText(bytes);
    if (!decoded.ok) throw new Error('expected text');
    expect(encodeText(decoded.text, decoded.format)).toEqual(bytes);
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', '\r', '\n', '\r\n', 'é')), (parts) => {
        const raw = Buffer.from(parts.join(''));
        const result = decodeText(raw);
        return result.ok && encodeText(result.text, result.format).equals(raw);
      }),
    );
  });

  it('refuses NUL bytes and invalid UTF-8', () => {
    expect(decodeText(Buffer.from([0x61, 0x00]))).toEqual({ ok: false, reason: 'binary' });
    expect(decodeText(Buffer.from([0xc3, 0x28]))).toEqual({ ok: false, reason: 'invalid-encoding' });
    expect(decodeText(Buffer.from([0xff, 0xfe, 0x00, 0xd8]))).toEqual({ ok: false, reason: 'invalid-encoding' });
  });

  it('reads UTF-16 BE with its BOM and writes it back identically', () => {
    const bytes = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('hé\r\nyo\r\n', 'utf16le').swap16()]);
    const decoded = decodeText(bytes);
    if (!decoded.ok) throw new Error('expected text');
    expect(decoded.text).toBe('hé\nyo\n');
    expect(decoded.format).toEqual({ encoding: 'utf-16be', bom: true, lineEnding: 'crlf' });
    expect(encodeText(decoded.text, decoded.format)).toEqual(bytes);
  });

  it('round-trips any text in every format byte for byte', () => {
    const formats = [
      { encoding: 'utf-8', bom: false },
      { encoding: 'utf-8', bom: true },
      { encoding: 'utf-16le', bom: true },
      { encoding: 'utf-16be', bom: true },
    ] as const;
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.constantFrom(...formats), fc.boolean(), (raw, base, crlf) => {
        const body = raw.replaceAll('\0', '').replaceAll('\r', '');
        const text = crlf ? body.replaceAll('\n', '\r\n') : body;
        const bytes = encodeText(text, { ...base, lineEnding: 'lf' });
        const decoded = decodeText(bytes);
        if (!decoded.ok) return false;
        return encodeText(decoded.text, decoded.format).equals(bytes);
      }),
    );
  });
});
