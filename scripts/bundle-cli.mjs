// Bundles the command line into dist/bin (one entry plus lazily loaded chunks): loading a few
// files instead of hundreds of modules is most of the cold start. Packages that find files
// beside themselves (WASM grammars, the ripgrep binary, pdf.js workers) and the terminal UI stay
// external and load from node_modules.
import { chmodSync } from 'node:fs';
import { build } from 'esbuild';

await build({
  entryPoints: { toolplane: 'src/cli/bin.ts' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  splitting: true,
  outdir: 'dist/bin',
  chunkNames: 'chunks/[name]-[hash]',
  external: ['web-tree-sitter', 'tree-sitter-bash', '@vscode/ripgrep', 'pdfjs-dist', 'turndown', 'ink', 'react', 'react/*', 'yoga-layout'],
  banner: { js: "import { createRequire as __toolplaneCreateRequire } from 'node:module';\nconst require = __toolplaneCreateRequire(import.meta.url);" },
  logLevel: 'warning',
  legalComments: 'none',
});
chmodSync('dist/bin/toolplane.js', 0o755);
