import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The folder of toolplane's own package.json, found by walking up from this module (it may run
 * from dist/cli or from the bundled dist/bin).
 */
export function packageRoot(): string {
  if (cached) return cached;
  for (let folder = dirname(fileURLToPath(import.meta.url)); ; folder = dirname(folder)) {
    const manifest = join(folder, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'toolplane'
    ) {
      cached = folder;
      return folder;
    }
    if (dirname(folder) === folder) throw new Error('toolplane: cannot find its own package.json');
  }
}

/** The package's version. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
