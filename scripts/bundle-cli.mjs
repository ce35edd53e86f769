// Bundles the command line into dist/bin (one entry plus lazily loaded chunks): loading a few
// files instead of hundreds of modules is most of the cold start. Packages that find files
// beside themselves (WASM grammars, the ripgrep binary, pdf.js workers) and the terminal UI stay
// external and load from node_modules.
import { chmodSync, rmSync } from 'node:fs';
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

await build({
  plugins: [englishOnlyZodLocales],
  entryPoints: { toolplane: 'src/cli/bin.ts' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  splitting: true,
  outdir: 'dist/bin',
  chunkNames: 'chunks/[name]-[hash]',
  // write-file-atomic names its temporary files after its own __filename, which an ESM bundle lacks.
  external: [
    'web-tree-sitter',
    'tree-sitter-bash',
    '@vscode/ripgrep',
    'pdfjs-dist',
    'turndown',
    'ajv',
    'ink',
    'react',
    'react/*',
    'yoga-layout',
    'write-file-atomic',
  ],
  banner: {
    js: "import { createRequire as __toolplaneCreateRequire } from 'node:module';\nconst require = __toolplaneCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
  legalComments: 'none',
});
chmodSync('dist/bin/toolplane.js', 0o755);
