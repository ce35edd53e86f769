import { platform } from 'node:os';
import path from 'node:path';
import type { CallSubject, PermissionGate, PreToolUseOutcome } from '../contract/gates.js';
import { createPermissionModeStore, type PermissionModeStore } from '../contract/permission-mode-store.js';
import type {
  DenyDecision,
  PermissionDecision,
  PermissionMode,
  PermissionRuleEntry,
  RuleSuggestion,
} from '../contract/permission.js';
import { initShellParser } from './bash-parser.js';
import { createCallEvaluator } from './call-evaluator.js';
import type { Evaluation } from './evaluation.js';
import { denyOf, foldDecision, toolCheckFailed } from './fold-decision.js';
import { checkPath, type WorkingFolder } from './path-checks.js';
import { pathForms, resolveRealPath } from './path-resolution.js';
import { createRuleSet, type RuleSet, type SourcedDiagnostic } from './rule-set.js';
import type { RuleDiagnostic } from './rule-parser.js';
import { canonicalToolName } from './tool-descriptors.js';
import type { CallScope } from './tool-evaluation.js';
import { validateRuleNames, type RuleCheckInput } from './validate-rules.js';

/** How a permission engine is set up for one session. */
export type PermissionEngineOptions = {
  /** Rules from every settings source, in precedence order (first match wins within a behavior). */
  readonly rules: readonly PermissionRuleEntry[];
  /** Default `default`. Ignored when `modeStore` is given. */
  readonly mode?: PermissionMode;
  /** The session's one mode store, read at every decision; default a store of its own. */
  readonly modeStore?: PermissionModeStore;
  /** The session's working folder. */
  readonly cwd: string;
  /** Further folders whose files may be read without a prompt and edited per the mode. */
  readonly additionalDirectories?: readonly string[];
  readonly homeDir: string;
  /** Compare allow-rule paths ignoring case. Default: true on macOS and Windows. */
  readonly caseInsensitive?: boolean;
  /**
   * Folders whose files are protected like `.git` (a write always goes to a person): pass the
   * user's toolplane folder when `TOOLPLANE_CONFIG_DIR` puts it somewhere no protected name covers.
   */
  readonly protectedFolders?: readonly string[];
};

/** The permission engine: the plane's {@link PermissionGate} plus what hosts and the CLI need. */
export type PermissionEngine = Omit<PermissionGate, 'remember'> & {
  readonly mode: PermissionMode;
  setMode(mode: PermissionMode): void;
  /** Adds a session rule (an "always allow" or "always deny" a person chose). */
  remember(suggestion: RuleSuggestion): void;
  /** A bare-name deny rule covers this tool: it must not reach the model's tool list. */
  isBlanketDenied(toolName: string): boolean;
  /**
   * Rule problems: parse errors and ignored rules; with the session's tools also rules naming tools
   * it does not have and specifiers a tool cannot match (see {@link validateRuleNames}).
   */
  validateRules(known?: RuleCheckInput): readonly SourcedDiagnostic[];
  /**
   * A deny for reading (or writing) `path`, for tools that list files (Grep, Glob) to drop
   * results the rules deny; undefined when allowed.
   */
  pathDenial(path: string, access: 'read' | 'write'): DenyDecision | undefined;
  /** Adds a working folder for the rest of the session. */
  addDirectory(directory: string): void;
  /**
   * Adds session allow rules until `revoke` is called (a custom slash command's `allowed-tools`,
   * for its turn). Like every allow rule they never outweigh a deny or ask rule or a safety check.
   * Rules that cannot be parsed are left out and returned as `problems`.
   */
  allowForNow(grant: { readonly rules: readonly string[]; readonly file: string }): TemporaryGrant;
};

/** Allow rules in force until revoked. */
export type TemporaryGrant = {
  readonly problems: readonly RuleDiagnostic[];
  /** Takes the rules out again; calling it twice does nothing more. */
  revoke(): void;
};

/**
 * Creates the permission engine. Await {@link initShellParser} at startup so Bash decisions are
 * synchronous; a decision that needs the parser before then awaits it.
 */
export function createPermissionEngine(options: PermissionEngineOptions): PermissionEngine {
  const modes = options.modeStore ?? createPermissionModeStore(options.mode ?? 'default');
  const caseInsensitive = options.caseInsensitive ?? (platform() === 'darwin' || platform() === 'win32');
  const homeDir = options.homeDir;
  const additional = [...(options.additionalDirectories ?? [])];
  const rules: RuleSet = createRuleSet(options.rules, { cwd: options.cwd, homeDir, caseInsensitive });
  const folders: WorkingFolder[] = [];
  const addFolder = (folder: string): void => {
    const given = path.resolve(folder);
    folders.push({ given, real: resolveRealPath(given) ?? given });
  };
  addFolder(options.cwd);
  for (const folder of additional) addFolder(folder);
  const scope: CallScope = {
    rules,
    homeDir,
    workingFolders: folders,
    caseInsensitive,
    ...(options.protectedFolders
      ? { protectedFolders: options.protectedFolders.map((folder) => path.resolve(folder)) }
      : {}),
    sessionCwd: options.cwd,
    additionalDirectories: additional,
  };
  const { evaluate, needsParser } = createCallEvaluator(scope);

  const finish = (
    subject: CallSubject & { readonly hookDecision?: PreToolUseOutcome },
    evaluation: Evaluation,
    toolDecision: PermissionDecision,
  ): PermissionDecision => {
    const decision = foldDecision({ subject, evaluation, toolDecision, mode: modes.get() });
    return decision.behavior === 'allow' && evaluation.readOnly ? { ...decision, readOnly: true } : decision;
  };

  return {
    get mode() {
      return modes.get();
    },
    setMode(next) {
      modes.set(next);
    },
    preCheck(subject) {
      if (needsParser(subject)) return undefined;
      const { deny } = evaluate(subject);
      return deny ? denyOf(deny) : undefined;
    },
    decide(subject) {
      const hook = subject.hookDecision;
      if (hook?.decision === 'deny') {
        const message = hook.reason ?? 'A PreToolUse hook blocked this call.';
        return { behavior: 'deny', message, reason: { kind: 'hook', hook: hook.hook ?? 'PreToolUse hook', message } };
      }
      const run = (): PermissionDecision | Promise<PermissionDecision> => {
        const evaluation = evaluate(subject);
        if (evaluation.deny) return denyOf(evaluation.deny);
        let toolDecision: PermissionDecision | Promise<PermissionDecision>;
        try {
          toolDecision = subject.tool.checkPermissions(subject.input, subject.context);
        } catch (error) {
          return toolCheckFailed(error);
        }
        if (toolDecision instanceof Promise) {
          return toolDecision.then(
            (decision) => finish(subject, evaluation, decision),
            (error: unknown) => toolCheckFailed(error),
          );
        }
        return finish(subject, evaluation, toolDecision);
      };
      if (needsParser(subject)) {
        return initShellParser().then(run, (error: unknown) => ({
          behavior: 'ask' as const,
          message: `The shell parser could not be loaded, so this Bash command cannot be checked (${error instanceof Error ? error.message : String(error)}).`,
          reason: { kind: 'safety' as const, message: 'the shell parser could not be loaded' },
        }));
      }
      return run();
    },
    remember(suggestion) {
      rules.add({ rule: suggestion.rule, behavior: suggestion.behavior, source: 'session', root: options.cwd });
    },
    isBlanketDenied(toolName) {
      return rules
        .forTool('deny', canonicalToolName(toolName))
        .some(
          (rule) =>
            rule.parsed.kind === 'tool' || rule.parsed.kind === 'mcp-server' || rule.parsed.kind === 'tool-glob',
        );
    },
    validateRules(known) {
      return validateRuleNames(rules, known);
    },
    pathDenial(path, access) {
      const forms = pathForms(path, { baseDir: options.cwd, homeDir });
      const check = checkPath(forms, { scope, access, recursive: false });
      if (check.deny === undefined) return undefined;
      const { entry } = check.deny;
      return {
        behavior: 'deny',
        message: `${forms.link} is denied by rule ${entry.rule} from ${entry.file ?? entry.source}.`,
        reason: { kind: 'rule', rule: entry.rule, source: entry.source, ...(entry.file ? { file: entry.file } : {}) },
      };
    },
    addDirectory(directory) {
      additional.push(directory);
      addFolder(directory);
    },
    allowForNow: (grant) => allowForNow(rules, { ...grant, root: options.cwd }),
  };
}

/** Adds `grant.rules` as session allow rules and returns how to take them out again. */
function allowForNow(
  rules: RuleSet,
  grant: { readonly rules: readonly string[]; readonly file: string; readonly root: string },
): TemporaryGrant {
  const entries = grant.rules.map((rule): PermissionRuleEntry => ({
    rule,
    behavior: 'allow',
    source: 'session',
    file: grant.file,
    root: grant.root,
  }));
  const problems = entries.flatMap((entry) => rules.add(entry) ?? []);
  return { problems, revoke: () => entries.forEach((entry) => rules.remove(entry)) };
}
