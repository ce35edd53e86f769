import { describe, expect, it } from 'vitest';
import { isOpaqueData } from './is-opaque-data.js';

describe('isOpaqueData', () => {
  it('recognises base64 with its padding and surrounding punctuation', () => {
    expect(isOpaqueData('iVBORw0KGgoAAAANSUhEUgAAAgAAAAIACAYAAAD0eNT6AAAABHNCSVQ=')).toBe(true);
    expect(isOpaqueData('"aGVsbG8gd29ybGQgdGhpcyBpcyBhIHRlc3Qgb2YgYmFzZTY0IGRhdGE=",')).toBe(true);
  });

  it('leaves words, identifiers, paths and short tokens alone', () => {
    expect(isOpaqueData('AbstractSingletonProxyFactoryBeanProviderFactory')).toBe(false);
    expect(isOpaqueData('/root/music/mixkit-retro-game-emergency-alarm-1000.wav')).toBe(false);
    expect(isOpaqueData('mcp__github__list_pull_requests_for_repository_v2')).toBe(false);
    expect(isOpaqueData('aGVsbG8gd29ybGQ=')).toBe(false);
    expect(isOpaqueData('da39a3ee5e6b4b0d3255bfef95601890afd80709')).toBe(false);
  });
});
