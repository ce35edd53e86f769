import type { SettingScope } from '../settings/load-settings.js';
import { UsageError } from './usage-error.js';

/** `value` when it is one of `allowed`, undefined when absent; else a {@link UsageError} naming the choices. */
export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)}).`);
}

/** A flag's whole-number value of at least `min`, or undefined when the flag is absent. */
export function wholeNumber(value: string | undefined, options: { readonly flag: string; readonly min: number }) {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !Number.isInteger(number) || number < options.min)
    throw new UsageError(`${options.flag} must be a whole number of at least ${options.min}.`);
  return number;
}

/** A flag's positive amount (dollars), or undefined when absent. */
export function positiveAmount(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0)
    throw new UsageError(`${flag} must be a number above 0 (got ${JSON.stringify(value)}).`);
  return number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A flag's UUID value, lower-cased, or undefined when absent. */
export function uuid(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (!UUID.test(value))
    throw new UsageError(
      `${flag} must be a UUID like 123e4567-e89b-12d3-a456-426614174000 (got ${JSON.stringify(value)}).`,
    );
  return value.toLowerCase();
}

/** Splits `--allowedTools "Read Bash(git *)"` style lists on commas and spaces outside parentheses. */
export function splitToolArguments(values: readonly string[] | undefined): string[] {
  const out: string[] = [];
  for (const value of values ?? []) {
    let depth = 0;
    let current = '';
    for (const char of value) {
      if (char === '(') depth++;
      if (char === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && (char === ',' || char === ' ')) {
        if (current.trim()) out.push(current.trim());
        current = '';
      } else {
        current += char;
      }
    }
    if (current.trim()) out.push(current.trim());
  }
  return out;
}

/** `--setting-sources user,project`: the list, each once; "" is none. */
export function settingSourceList(value: string | undefined): readonly SettingScope[] | undefined {
  if (value === undefined) return undefined;
  const sources: SettingScope[] = [];
  for (const part of value.split(',').map((text) => text.trim())) {
    if (part === '') continue;
    const source = oneOf(part, ['user', 'project', 'local'] as const, '--setting-sources');
    if (source !== undefined && !sources.includes(source)) sources.push(source);
  }
  return sources;
}

/** `--tools`: undefined when absent or "default" (every built-in tool), [] for "", else the names. */
export function toolList(values: readonly string[] | undefined): readonly string[] | undefined {
  if (values === undefined) return undefined;
  const names = splitToolArguments(values);
  if (names.includes('default')) return undefined;
  return names;
}

/** `--agents '{"reviewer": {...}}'`: the object of subagents by name. */
export function agentsObject(value: string | undefined): Readonly<Record<string, unknown>> | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new UsageError(`--agents is not valid JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new UsageError('--agents must be a JSON object of subagents by name.');
  return Object.assign(Object.create(null) as Record<string, unknown>, parsed);
}
