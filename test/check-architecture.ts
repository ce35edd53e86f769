import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** Layers of src/, from ../shared/STYLE.md. Each folder may import itself and the layers listed. */
const LEAVES = ['contract', 'errors', 'messages'];
const STAGES = ['pool', 'schema', 'search', 'permissions', 'hooks', 'results', 'sandbox'];
const ALLOWED: Record<string, readonly string[]> = {
  contract: LEAVES,
  errors: LEAVES,
  messages: LEAVES,
  ...Object.fromEntries(STAGES.map((stage) => [stage, LEAVES])),
  execution: [...LEAVES, ...STAGES],
  loop: [...LEAVES, ...STAGES, 'execution'],
  // The session composes the loop with the stages, the built-in tools' services, MCP and settings.
  session: [...LEAVES, ...STAGES, 'execution', 'loop', 'tools', 'mcp', 'settings'],
  providers: LEAVES,
  tools: LEAVES,
  mcp: [...LEAVES, ...STAGES],
  settings: [...LEAVES, ...STAGES],
  testing: [...LEAVES, ...STAGES, 'execution', 'loop', 'session', 'providers', 'tools', 'mcp', 'settings'],
  // The CLI drives a session: the loop, the hooks and the result store only through session/.
  cli: [
    ...LEAVES,
    ...STAGES.filter((stage) => stage !== 'hooks' && stage !== 'results'),
    'execution',
    'session',
    'providers',
    'tools',
    'mcp',
    'settings',
    'testing',
  ],
  '.': ['*'],
};

export type Violation = { readonly file: string; readonly imports: string; readonly rule: string };

/**
 * Where side effects may live (STYLE.md: "child processes in tools/bash and the MCP stdio
 * transport"; we add the hook runner and ripgrep, which are processes by nature). Paths are
 * relative to src/. The MCP SDK spawns its own stdio servers.
 */
const CHILD_PROCESS_ALLOWED = [
  'tools/bash/',
  'tools/fs-helpers/run-ripgrep.ts',
  'hooks/run-command-hook.ts',
  'sandbox/',
];
const CHILD_PROCESS = /from\s*['"](?:node:)?child_process['"]/;
/** console.* only in the command line and the terminal UI. */
const CONSOLE = /\bconsole\.(?:log|error|warn|info|debug)\s*\(/;

/**
 * The host's environment, working folder and home come in through options (the session's, and
 * those of the factories it builds); only the command line reads them from the process. Paths
 * relative to src/ that may read them anyway: none.
 */
const HOST_STATE_ALLOWED: readonly string[] = [];
const HOST_STATE_RULE =
  'library code takes env, cwd and home from options (createAgentSession and the factories it builds); only cli/ reads the process';

const isProcess = (node: ts.Node): boolean =>
  (ts.isIdentifier(node) && node.text === 'process') ||
  (ts.isPropertyAccessExpression(node) && node.name.text === 'process');
const HOST_NAMES: Record<string, string> = { env: 'process.env', cwd: 'process.cwd' };

/**
 * Where `text` reads the host's state: `process.env`, `process.cwd`, `process['env']`,
 * `const { env } = process`, `import { env } from 'node:process'` and `homedir()` (as
 * `os.homedir()` too). Comments and strings that
 * mention them do not count: this walks the syntax tree.
 */
export function hostStateReads(text: string, fileName = 'source.ts'): string[] {
  const found: string[] = [];
  // Parsing is the slow part; a file that never names them cannot read them.
  if (!/\bprocess\b|\bhomedir\b/.test(text)) return found;
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && isProcess(node.expression) && HOST_NAMES[node.name.text]) {
      found.push(HOST_NAMES[node.name.text]!);
    } else if (
      ts.isElementAccessExpression(node) &&
      isProcess(node.expression) &&
      ts.isStringLiteralLike(node.argumentExpression) &&
      HOST_NAMES[node.argumentExpression.text]
    ) {
      found.push(HOST_NAMES[node.argumentExpression.text]!);
    } else if (ts.isVariableDeclaration(node) && node.initializer && isProcess(node.initializer)) {
      if (ts.isObjectBindingPattern(node.name)) {
        for (const element of node.name.elements) {
          const key = element.propertyName ?? element.name;
          if (ts.isIdentifier(key) && HOST_NAMES[key.text]) found.push(HOST_NAMES[key.text]!);
        }
      }
    } else if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      /^(?:node:)?process$/.test(node.moduleSpecifier.text)
    ) {
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) {
          const name = (element.propertyName ?? element.name).text;
          if (HOST_NAMES[name]) found.push(HOST_NAMES[name]!);
        }
      }
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : '';
      if (name === 'homedir') found.push('os.homedir');
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX));
  return found;
}

function* sourceFiles(folder: string): Generator<string> {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) {
      if (name === '__fixtures__' || name === 'node_modules') continue;
      yield* sourceFiles(path);
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) {
      yield path;
    }
  }
}

const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

function layerOf(srcRoot: string, file: string): string {
  const first = relative(srcRoot, file).split(sep)[0]!;
  return first.includes('.') ? '.' : first;
}

/**
 * Checks the import rules of STYLE.md over a `src/` folder: leaves import only leaves, stages only
 * leaves, built-in tools only leaves, cli/ reaches the loop, hooks and results only through
 * session/, nothing imports cli/, and only cli/ reads the process's environment, working folder
 * and home. Test files are not checked.
 */
export function checkArchitecture(srcRoot: string): Violation[] {
  const violations: Violation[] = [];
  for (const file of sourceFiles(srcRoot)) {
    const from = layerOf(srcRoot, file);
    const text = readFileSync(file, 'utf8');
    const shownFile = relative(srcRoot, file);
    if (CHILD_PROCESS.test(text) && !CHILD_PROCESS_ALLOWED.some((allowed) => shownFile.startsWith(allowed))) {
      violations.push({
        file: shownFile,
        imports: 'node:child_process',
        rule: `child processes only in ${CHILD_PROCESS_ALLOWED.join(', ')}`,
      });
    }
    if (CONSOLE.test(text) && from !== 'cli')
      violations.push({ file: shownFile, imports: 'console', rule: 'console only in cli/' });
    if (from !== 'cli' && !HOST_STATE_ALLOWED.some((allowed) => shownFile.startsWith(allowed))) {
      for (const read of new Set(hostStateReads(text, file)))
        violations.push({ file: shownFile, imports: read, rule: HOST_STATE_RULE });
    }
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3]!;
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier);
      if (!target.startsWith(srcRoot + sep)) continue;
      const to = layerOf(srcRoot, target);
      if (to === from) continue;
      const shown = relative(srcRoot, file);
      if (to === 'cli') {
        violations.push({ file: shown, imports: specifier, rule: 'nothing imports cli/' });
        continue;
      }
      const allowed = ALLOWED[from];
      if (!allowed) {
        violations.push({ file: shown, imports: specifier, rule: `folder ${from}/ is not in the layer table` });
      } else if (!allowed.includes('*') && !allowed.includes(to)) {
        violations.push({ file: shown, imports: specifier, rule: `${from}/ may import only ${allowed.join(', ')}` });
      }
    }
  }
  return violations;
}
