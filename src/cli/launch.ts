import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, Script } from 'node:vm';

/**
 * Where the launcher leaves its `import()` for the bundle (scripts/bundle-cli.mjs rewrites the
 * bundle's dynamic imports to call it). Resolved from the launcher, which sits beside the bundle.
 */
export const BUNDLE_IMPORT = Symbol.for('toolplane.import');

/**
 * Where a code cache for `bundleId` lives: `<config dir>/cache/code/`, the config dir being
 * `TOOLPLANE_CONFIG_DIR`, else `~/.toolplane`. The name carries the Node version and the
 * architecture, whose V8 would reject another's cache anyway.
 */
export function codeCachePath(options: {
  readonly bundleId: string;
  readonly env: NodeJS.ProcessEnv;
  readonly homeDir: string;
}): string {
  const configured = options.env['TOOLPLANE_CONFIG_DIR'];
  const configDir =
    configured !== undefined && configured.length > 0 ? configured : join(options.homeDir, '.toolplane');
  return join(configDir, 'cache', 'code', `toolplane-${options.bundleId}-${process.version}-${process.arch}.bin`);
}

function readCache(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Writes the cache beside its final name and renames it there, so a reader never sees half of
 * one, then removes the caches of other builds and Node versions from the folder.
 */
function writeCache(path: string, data: Buffer): void {
  try {
    const folder = dirname(path);
    mkdirSync(folder, { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, data);
    renameSync(temporary, path);
    for (const name of readdirSync(folder)) {
      if (name.startsWith('toolplane-') && name.endsWith('.bin') && name !== basename(path)) rmSync(join(folder, name));
    }
  } catch {
    // A read-only or full disk only costs the next start its compile time.
  }
}

/**
 * Node 20–24 call the option that sends a script's `import()` to the main loader experimental and
 * say so on stderr at the first such import (the terminal UI's); that one warning is dropped.
 */
function silenceLoaderWarning(): void {
  const emitWarning = process.emitWarning.bind(process);
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (text.includes('vm.USE_MAIN_CONTEXT_DEFAULT_LOADER')) return;
    (emitWarning as (...args: unknown[]) => void)(warning, ...rest);
  }) as typeof process.emitWarning;
}

/**
 * Runs the CommonJS bundle at `bundlePath` compiled with V8's code cache: a cache that V8 accepts
 * skips parsing and compiling what the last run compiled; a missing or rejected one (another
 * build, Node version or V8 flags) is silently replaced, written when the process exits with
 * every function compiled by then. Nothing else changes: the bundle gets its own `require`,
 * `module`, `__filename` and `__dirname`, and its dynamic `import()`s go to Node's loader.
 */
export function launchBundle(options: { readonly bundlePath: string; readonly cachePath: string }): void {
  const { bundlePath, cachePath } = options;
  // Node 22.1+ caches the modules its own loader compiles (ink, the grammar's runtime) as well.
  const { enableCompileCache } = nodeModule as { enableCompileCache?: (directory: string) => unknown };
  try {
    enableCompileCache?.(join(dirname(dirname(cachePath)), 'modules'));
  } catch {
    // Only a cache: the modules compile as they would without it.
  }
  // V8 drops a script's dynamic-import host options when it is compiled from a code cache
  // (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING on every run after the first): the bundle's import()s
  // are rewritten at build time to call this function, whose import() is the launcher's own.
  (globalThis as Record<symbol, unknown>)[BUNDLE_IMPORT] = (specifier: string) => import(specifier);
  const source = readFileSync(bundlePath, 'utf8');
  const cachedData = readCache(cachePath);
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {"use strict";${source}\n})`, {
    filename: bundlePath,
    ...(cachedData === undefined ? {} : { cachedData }),
    // Only for a bundle built without the rewrite above, and only without a cache.
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  silenceLoaderWarning();
  if (cachedData === undefined || script.cachedDataRejected === true) {
    process.once('exit', () => writeCache(cachePath, script.createCachedData()));
  }
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} };
  run.call(
    module.exports,
    module.exports,
    nodeModule.createRequire(bundlePath),
    module,
    bundlePath,
    dirname(bundlePath),
  );
}

/**
 * The `toolplane` command: runs `toolplane.cjs` from beside this file, with a code cache keyed by
 * `bundleId` (the build's content hash, written into the launcher at build time).
 */
export function launch(bundleId: string): void {
  const bundlePath = join(dirname(fileURLToPath(import.meta.url)), 'toolplane.cjs');
  launchBundle({ bundlePath, cachePath: codeCachePath({ bundleId, env: process.env, homeDir: homedir() }) });
}
