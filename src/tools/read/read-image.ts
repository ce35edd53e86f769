/** Image formats Read returns as image blocks, by extension, with their magic bytes. */
const IMAGE_TYPES: ReadonlyMap<string, string> = new Map([
  ['.png', 'image/png'],
  ['.jpg', 'image/jpeg'],
  ['.jpeg', 'image/jpeg'],
  ['.gif', 'image/gif'],
  ['.webp', 'image/webp'],
]);

/** Largest image Read returns (bytes): its base64 form stays under the API's 5 MB image limit. */
export const MAX_IMAGE_BYTES = 3_750_000;

/** The media type for an image extension (lower case, with the dot), if Read shows it as an image. */
export function imageMediaTypeForExtension(extension: string): string | undefined {
  return IMAGE_TYPES.get(extension);
}

/** The media type the bytes actually are (from their signature), or `undefined` for none of ours. */
export function sniffImageMediaType(bytes: Uint8Array): string | undefined {
  const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
  if (bytes[0] === 0x89 && ascii(1, 4) === 'PNG') return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 4) === 'GIF8') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}
