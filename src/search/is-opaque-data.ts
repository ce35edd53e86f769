/** At least this many characters of base64 make a chunk data rather than words. */
const OPAQUE_MIN_LENGTH = 40;
const BASE64_CHUNK = /^[A-Za-z0-9+/]+=*$/;

/**
 * Whether a query chunk is pasted data (base64, a key, a hash in mixed case): long, of the base64
 * alphabet only, with a digit and both cases. Split at its case changes it would give many random
 * fragments, some of which are words of tool names; it says nothing about the tool wanted.
 */
export function isOpaqueData(chunk: string): boolean {
  const trimmed = chunk.replace(/^[^\p{L}\p{N}+/]+|[^\p{L}\p{N}+/=]+$/gu, '');
  return (
    trimmed.length >= OPAQUE_MIN_LENGTH &&
    BASE64_CHUNK.test(trimmed) &&
    /\d/.test(trimmed) &&
    /\p{Lu}/u.test(trimmed) &&
    /\p{Ll}/u.test(trimmed)
  );
}
