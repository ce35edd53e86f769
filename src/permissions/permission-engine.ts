import { realpathSync, statSync } from 'node:fs';
import { platform } from 'node:os';
import path from 'node:path';
import type { CallSubject, PermissionGate, PreToolUseOutcome } from '../contract/gates.js';
import { createPermissionModeStore, type PermissionModeStore } from '../contract/permission-mode-store.js';
import type {
  AskDecision,
  DecisionReason,
  DenyDecision,
  PermissionDecision,
  PermissionMode,
  PermissionRuleEntry,
  RuleSuggestion,
} from '../contract/permission.js';
import { SHELL_STATE } from '../contract/shell-state.js';
import { initShellParser, isShellParserReady, parseShell, type ShellScript } from './bash-parser.js';
import type { Evaluation } from './evaluation.js';
import { checkPath, type WorkingFolder } from './path-checks.js';
import { pathForms, resolveRealPath } from './path-resolution.js';
import { createRuleSet, type RuleSet, type SourcedDiagnostic } from './rule-set.js';
import { canonicalToolName, PLAN_MODE_TOOLS } from './tool-descriptors.js';
import { evaluateCall, familyOf, type CallScope } from './tool-evaluation.js';
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
};

const CACHE_SIZE = 32;

function isAskOrDeny(decision: PermissionDecision): decision is AskDecision | DenyDecision {
  return decision.behavior === 'ask' || decision.behavior === 'deny';
}

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
  const scripts = new Map<string, ShellScript>();

  const scriptFor = (command: string, cwd: string): ShellScript => {
    const key = `${cwd}\u0000${command}`;
    const cached = scripts.get(key);
    if (cached) return cached;
    const script = parseShell(command, { cwd, homeDir });
    if (scripts.size >= CACHE_SIZE) scripts.delete(scripts.keys().next().value as string);
    scripts.set(key, script);
    return script;
  };

  const evaluate = (subject: CallSubject): Evaluation => {
    const family = familyOf(subject.tool, subject.input);
    const input = subject.input;
    const command = typeof input === 'object' && input !== null ? (input as { command?: unknown }).command : undefined;
    // A command runs where the shell was left by earlier calls (`cd x` in one, `git status` in the
    // next): it is judged there, and git-elsewhere compares that folder to the session folder.
    const shellCwd = family === 'bash' ? shellFolder(subject) : subject.context.cwd;
    const script =
      family === 'bash' && typeof command === 'string' && isShellParserReady()
        ? scriptFor(command, shellCwd)
        : undefined;
    return evaluateCall({ tool: subject.tool, input, cwd: shellCwd, ...(script ? { script } : {}) }, scope);
  };

  const needsParser = (subject: CallSubject): boolean =>
    !isShellParserReady() && familyOf(subject.tool, subject.input) === 'bash';

  const finish = (
    subject: CallSubject & { readonly hookDecision?: PreToolUseOutcome },
    evaluation: Evaluation,
    toolDecision: PermissionDecision,
  ): PermissionDecision => {
    const decision = fold({ subject, evaluation, toolDecision, mode: modes.get() });
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
  };
}

/** The folder the shell is in for this session (as the Bash tool picks it), else the call's folder. */
function shellFolder(subject: CallSubject): string {
  const remembered = subject.context.services.get(SHELL_STATE)?.getCwd(subject.context.sessionId);
  if (remembered === undefined || remembered === subject.context.cwd) return subject.context.cwd;
  try {
    // The tool falls back to the call's folder when the remembered one is gone; so does the check.
    if (!statSync(remembered).isDirectory()) return subject.context.cwd;
    // The shell records `pwd -P`: the session folder spelled through a symlink is still the session folder.
    return realpathSync(remembered) === realpathSync(subject.context.cwd) ? subject.context.cwd : remembered;
  } catch {
    return subject.context.cwd;
  }
}

function denyOf(deny: NonNullable<Evaluation['deny']>): DenyDecision {
  return { behavior: 'deny', message: deny.message, reason: deny.reason };
}

function toolCheckFailed(error: unknown): PermissionDecision {
  const detail = error instanceof Error ? error.message : String(error);
  return {
    behavior: 'ask',
    message: `The tool's permission check failed (${detail}); approve only if the call is safe.`,
    reason: { kind: 'safety', message: `the tool's permission check failed: ${detail}` },
  };
}

/** Turns an ask into the answer the mode gives: dontAsk denies whatever would prompt. */
function askOrDeny(options: {
  readonly mode: PermissionMode;
  readonly message: string;
  readonly reason: DecisionReason;
  readonly suggestions?: readonly RuleSuggestion[];
}): PermissionDecision {
  if (options.mode === 'dontAsk') {
    return {
      behavior: 'deny',
      message: `${options.message} Permission mode dontAsk denies calls that would need approval; do not retry, take another approach.`,
      reason:
        options.reason.kind === 'rule' || options.reason.kind === 'safety'
          ? options.reason
          : { kind: 'mode', mode: 'dontAsk' },
    };
  }
  return {
    behavior: 'ask',
    message: options.message,
    reason: options.reason,
    ...(options.suggestions && options.suggestions.length > 0 ? { suggestions: options.suggestions } : {}),
  };
}

/** Folds the evaluation, the hook verdict, the tool's own check and the mode into the decision. */
function fold(options: {
  readonly subject: CallSubject & { readonly hookDecision?: PreToolUseOutcome };
  readonly evaluation: Evaluation;
  readonly toolDecision: PermissionDecision;
  readonly mode: PermissionMode;
}): PermissionDecision {
  const { subject, evaluation, toolDecision, mode } = options;
  const name = subject.tool.name;
  const hook = subject.hookDecision;
  const hookReason: DecisionReason = {
    kind: 'hook',
    hook: hook?.hook ?? 'PreToolUse hook',
    ...(hook?.reason ? { message: hook.reason } : {}),
  };
  // Deny beats ask: the tool's own deny wins over a safety check or an ask rule that would prompt.
  if (toolDecision.behavior === 'deny') {
    return { ...toolDecision, reason: toolDecision.reason ?? { kind: 'tool', message: toolDecision.message } };
  }
  const safety = evaluation.safety;
  if (safety && !(safety.bypassable && mode === 'bypassPermissions')) {
    return askOrDeny({ mode, message: safety.message, reason: { kind: 'safety', message: safety.message } });
  }
  if (evaluation.ask) return askOrDeny({ mode, message: evaluation.ask.message, reason: evaluation.ask.reason });
  if (hook?.decision === 'ask') {
    return askOrDeny({
      mode,
      message: hook.reason ?? `A PreToolUse hook asks for approval of ${name}.`,
      reason: hookReason,
    });
  }
  if (isAskOrDeny(toolDecision)) {
    // A tool's ask that offers rules to save means "ask unless the person allowed this": an allow
    // rule (an "always allow" saved earlier) answers it. An ask with no suggestions, or a safety
    // ask, always prompts (the reference's requiresUserInteraction), even in bypass mode.
    if (
      toolDecision.behavior === 'ask' &&
      toolDecision.reason.kind !== 'safety' &&
      (toolDecision.suggestions?.length ?? 0) > 0 &&
      evaluation.approved?.kind === 'rule'
    ) {
      return { behavior: 'allow', reason: evaluation.approved };
    }
    return askOrDeny({
      mode,
      message: toolDecision.message,
      reason: toolDecision.reason,
      ...(toolDecision.suggestions ? { suggestions: toolDecision.suggestions } : {}),
    });
  }
  // Plan mode holds against every allow short of the mode itself: neither the tool's own allow nor
  // a hook's allow (which skips only the prompt) lets a change run before the plan is approved.
  const plans = subject.tool.builtin !== undefined && PLAN_MODE_TOOLS.has(subject.tool.builtin);
  const planBlocks = mode === 'plan' && !evaluation.readOnly && !plans;
  if (!planBlocks && toolDecision.behavior === 'allow') return toolDecision;
  if (!planBlocks && hook?.decision === 'allow') return { behavior: 'allow', reason: hookReason };
  switch (mode) {
    case 'bypassPermissions':
      return { behavior: 'allow', reason: { kind: 'mode', mode } };
    case 'plan':
      if (planBlocks) {
        return {
          behavior: 'deny',
          message: `Plan mode is on: ${name} would change files or run commands. Keep exploring read-only, then present the plan for approval (ExitPlanMode) before making changes.`,
          reason: { kind: 'mode', mode },
        };
      }
      break;
    case 'acceptEdits':
      if (evaluation.acceptEdits && evaluation.approved === undefined)
        return { behavior: 'allow', reason: { kind: 'mode', mode } };
      break;
    case 'default':
    case 'dontAsk':
      break;
  }
  if (evaluation.approved) return { behavior: 'allow', reason: evaluation.approved };
  const pending = evaluation.pending.length > 0 ? `: ${evaluation.pending.slice(0, 5).join('; ')}` : '';
  return askOrDeny({
    mode,
    message: `${name} needs approval${pending}.`,
    reason: { kind: 'default', message: 'no rule or mode allows this call' },
    suggestions: evaluation.suggestions,
  });
}
