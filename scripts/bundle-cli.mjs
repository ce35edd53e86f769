// Bundles the command line into dist/bin: `toolplane.cjs`, one CommonJS file holding the whole
// command, and `toolplane.js`, a small launcher that compiles it with a V8 code cache (see
// src/cli/launch.ts). Loading one file instead of hundreds of modules, and not parsing or
// compiling it again on every start, is most of the cold start. Packages that find files beside
// themselves (WASM grammars, the ripgrep binary, pdf.js workers) and the terminal UI's ink stay
// external and load from node_modules.
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist/bin', { recursive: true, force: true });
// Zod's namespace object re-exports ~40 message locales that toolplane never uses (errors are
// English and rewritten for the model anyway); only English is bundled.
const englishOnlyZodLocales = {
  name: 'english-only-zod-locales',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /locales\/index\.js$/ }, (args) =>
      args.importer.includes('/node_modules/zod/') ? { path: 'zod-locales-en', namespace: 'zod-locales' } : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: process.cwd(),
    }));
  },
};

// ink is an ES module with top-level await, which CommonJS cannot require. The terminal UI is
// entered through one function; in the bundle that entry first imports ink (a real dynamic
// import) and hands it to the UI's modules, whose `import ... from 'ink'` read it from there.
const INK = "Symbol.for('toolplane.ink')";
const inkHandoff = {
  name: 'ink-handoff',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^ink$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: 'ink', external: true } : { path: 'ink', namespace: 'ink-handoff' },
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'ink-handoff' }, () => ({
      contents: `const ink = globalThis[${INK}];
if (ink === undefined) throw new Error('toolplane: the terminal UI was loaded before ink');
module.exports = ink;`,
      loader: 'js',
    }));
    pluginBuild.onResolve({ filter: /\/tui\/run-interactive\.js$/ }, (args) =>
      args.namespace === 'tui-entry' ? undefined : { path: args.path, namespace: 'tui-entry', pluginData: args },
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'tui-entry' }, (args) => ({
      contents: `export async function runInteractive(...args) {
  globalThis[${INK}] ??= await import('ink');
  const ui = await import(${JSON.stringify(args.path)});
  return ui.runInteractive(...args);
}`,
      resolveDir: args.pluginData.resolveDir,
      loader: 'js',
    }));
  },
};

// A dynamic import() of a Node builtin or of a CommonJS package kept outside the bundle would
// start Node's ES module loader (tens of ms); such an import becomes a lazy require instead.
const COMMONJS_EXTERNALS = new Set(['@vscode/ripgrep', 'turndown', 'web-tree-sitter', 'write-file-atomic']);
const lazyRequire = {
  name: 'lazy-require',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' && (args.path.startsWith('node:') || COMMONJS_EXTERNALS.has(args.path))
        ? { path: args.path, namespace: 'lazy-require' }
        : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'lazy-require' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};

// Telemetry's SDK loads only when telemetry is on (src/cli/telemetry/load-telemetry.ts): the
// telemetry folder's imports of it stay outside the bundle. The Anthropic SDK's own import of
// `@opentelemetry/api` stays inside it, compiled from the code cache with the rest, as before.
const telemetryOutside = {
  name: 'telemetry-outside',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^@opentelemetry\// }, (args) =>
      /[\\/]src[\\/]cli[\\/]telemetry[\\/]/.test(args.importer) ? { path: args.path, external: true } : undefined,
    );
  },
};

await build({
  plugins: [englishOnlyZodLocales, inkHandoff, lazyRequire, telemetryOutside],
  entryPoints: ['src/cli/bin.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: 'dist/bin/toolplane.cjs',
  // Half the source to read, and a smaller code cache; names stay, for stack traces and `.name`.
  minify: true,
  keepNames: true,
  define: { 'import.meta.url': '__toolplaneModuleUrl' },
  banner: {
    js: [
      "var __toolplaneModuleUrl = require('node:url').pathToFileURL(__filename).href;",
      "var __toolplaneImport = globalThis[Symbol.for('toolplane.import')] ?? ((specifier) => import(specifier));",
    ].join('\n'),
  },
  external: [
    'web-tree-sitter',
    'tree-sitter-bash',
    '@vscode/ripgrep',
    'pdfjs-dist',
    'turndown',
    'ajv',
    'react',
    'react/*',
    'yoga-layout',
    'write-file-atomic',
  ],
  logLevel: 'warning',
  legalComments: 'none',
});

// The launcher wraps the bundle in a function, where the entry's `#!` line would be a syntax error.
// Each dynamic import() left in the bundle (ink, pdf.js) calls the launcher's import instead: V8
// loses a script's import() callback when it compiles the script from a code cache (src/cli/launch.ts).
// Minified code quotes with double quotes; `import('node:buffer')` in a message's text is not code.
const DYNAMIC_IMPORT = /(?<![\w$.])import\(("[^"]+")\)/g;
const bundle = readFileSync('dist/bin/toolplane.cjs', 'utf8')
  .replace(/^#!.*\n/, '')
  .replace(DYNAMIC_IMPORT, '__toolplaneImport($1)');
if (!bundle.includes('__toolplaneImport("ink")'))
  throw new Error('bundle-cli: the terminal UI\'s import("ink") was not rewritten');
writeFileSync('dist/bin/toolplane.cjs', bundle);
const bundleId = createHash('sha256').update(bundle).digest('hex').slice(0, 16);
await build({
  stdin: {
    contents: `import { launch } from './src/cli/launch.ts';\nlaunch(${JSON.stringify(bundleId)});\n`,
    resolveDir: process.cwd(),
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  target: 'node20',
  // CommonJS too (dist/bin/package.json says so): an ES module entry would load Node's ESM loader first.
  format: 'cjs',
  outfile: 'dist/bin/toolplane.js',
  define: { 'import.meta.url': '__toolplaneModuleUrl' },
  banner: { js: "#!/usr/bin/env node\nvar __toolplaneModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
  legalComments: 'none',
});
writeFileSync('dist/bin/package.json', `${JSON.stringify({ type: 'commonjs' })}\n`);
chmodSync('dist/bin/toolplane.js', 0o755);
