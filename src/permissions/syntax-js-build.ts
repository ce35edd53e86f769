import type { Syntax } from './option-syntax.js';

const NPM: Syntax = {
  style: 'npm',
  subcommand: true,
  valueOptions: [
    '-w',
    '--workspace',
    '--prefix',
    '-C',
    '--userconfig',
    '--globalconfig',
    '--registry',
    '--cache',
    '--logs-dir',
    '--loglevel',
  ],
  end: 'double-dash',
};

/** Command-line layouts of the JavaScript and build tools (npm, pnpm, npx, node, make, go, cargo, tsc, the C compilers). */
export const JS_AND_BUILD_SYNTAX: readonly (readonly [string, Syntax])[] = [
  ['npm', NPM],
  ['pnpm', NPM],
  [
    'npx',
    {
      style: 'npm',
      subcommand: false,
      valueOptions: ['-p', '--package', '-c', '--call', '--node-options', '--userconfig'],
      flagOptions: ['-y', '--yes', '--no', '--no-install', '--ignore-existing', '-q', '--quiet'],
      end: 'operand',
    },
  ],
  // Node's options end at the script, but a script argument that looks like one asks too: safer than guessing.
  [
    'node',
    {
      style: 'node',
      subcommand: false,
      valueOptions: [
        '-r',
        '--require',
        '--import',
        '--loader',
        '--experimental-loader',
        '-e',
        '--eval',
        '-p',
        '--print',
        '-C',
        '--conditions',
        '--input-type',
        '--test-reporter',
        '--test-reporter-destination',
        '--inspect-port',
        '--title',
      ],
      end: 'double-dash',
    },
  ],
  [
    'make',
    { style: 'getopt', subcommand: false, valueOptions: ['-f', '-C', '-I', '-o', '-W', '-l'], end: 'double-dash' },
  ],
  [
    'gmake',
    { style: 'getopt', subcommand: false, valueOptions: ['-f', '-C', '-I', '-o', '-W', '-l'], end: 'double-dash' },
  ],
  ['go', { style: 'go', subcommand: true, valueOptions: ['-C'], end: 'double-dash' }],
  [
    'cargo',
    { style: 'exact', subcommand: true, valueOptions: ['-C', '--config', '-Z', '--color'], end: 'double-dash' },
  ],
  ...(['gcc', 'g++', 'cc', 'c++', 'clang', 'clang++'] as const).map((name): [string, Syntax] => [
    name,
    {
      style: 'exact',
      subcommand: false,
      valueOptions: ['-o', '-x', '-I', '-L', '-include', '-MF', '-MT'],
      end: 'double-dash',
    },
  ]),
  [
    'tsc',
    {
      style: 'getopt',
      subcommand: false,
      valueOptions: [
        '--outDir',
        '--outFile',
        '--declarationDir',
        '--tsBuildInfoFile',
        '-p',
        '--project',
        '--target',
        '-t',
        '--module',
        '-m',
        '--lib',
        '--jsx',
      ],
      end: 'double-dash',
    },
  ],
];
