import type { DataPathOption } from './data-path-options.js';

const COMPILERS = ['gcc', 'g++', 'cc', 'c++', 'clang', 'clang++'];

/** Files compilers (gcc and clang, go, tsc) read or write through options. */
export const COMPILER_DATA_PATH_OPTIONS: readonly DataPathOption[] = [
  {
    program: COMPILERS,
    trigger: { kind: 'option', names: ['-o'] },
    access: 'write',
    what: 'the compiled output',
    source: 'gcc(1): -o',
    example: { rule: 'Bash(gcc:*)', attack: 'gcc -o .bashrc x.c', expect: 'ask', lookAlike: 'gcc -o out x.c' },
  },
  {
    program: COMPILERS,
    trigger: { kind: 'at-file' },
    access: 'read',
    what: 'a response file of further arguments',
    source: 'gcc(1): @file',
    example: { rule: 'Bash(gcc:*)', attack: 'gcc @.env', expect: 'deny', lookAlike: 'gcc @args.txt' },
  },
  {
    program: COMPILERS,
    trigger: { kind: 'operands', which: 'all' },
    access: 'read',
    what: 'its inputs (`-E` prints them)',
    source: 'gcc(1): -E',
    example: { rule: 'Bash(gcc:*)', attack: 'gcc -x c -E .env', expect: 'deny', lookAlike: 'gcc -c x.c' },
  },
  {
    program: ['go'],
    subcommands: ['build', 'test', 'install', 'run'],
    trigger: {
      kind: 'option',
      names: [
        '-o',
        '-coverprofile',
        '-cpuprofile',
        '-memprofile',
        '-blockprofile',
        '-mutexprofile',
        '-trace',
        '-outputdir',
      ],
    },
    access: 'write',
    what: 'a binary or a profile',
    source: '`go help build` (-o), `go help testflag` (-coverprofile, -cpuprofile, …)',
    example: {
      rule: 'Bash(go build:*)',
      attack: 'go build -o .bashrc ./...',
      expect: 'ask',
      lookAlike: 'go build -o bin/app ./...',
    },
  },
  {
    program: ['tsc'],
    trigger: { kind: 'option', names: ['--outDir', '--declarationDir'] },
    access: 'write-folder',
    what: 'the folder it writes JavaScript into',
    source: 'typescriptlang.org/tsconfig#outDir',
    example: { rule: 'Bash(tsc:*)', attack: 'tsc --outDir ~/.ssh', expect: 'deny', lookAlike: 'tsc --outDir dist' },
  },
  {
    program: ['tsc'],
    trigger: { kind: 'option', names: ['--outFile', '--tsBuildInfoFile'] },
    access: 'write',
    what: 'a file it writes',
    source: 'typescriptlang.org/tsconfig#outFile',
    example: {
      rule: 'Bash(tsc:*)',
      attack: 'tsc --outFile .bashrc',
      expect: 'ask',
      lookAlike: 'tsc --outFile dist/app.js',
    },
  },
];
