/**
 * A count with its noun as people write it: `1 line`, `0 lines`, `2 files`. The plural is `one`
 * plus "s" unless `many` is given (`1 search`, `3 searches`).
 */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
