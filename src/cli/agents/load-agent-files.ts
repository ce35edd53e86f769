import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describeError } from '../../errors/index.js';
import type { SubagentType } from '../../session/index.js';
import { splitFrontMatter, type FrontMatter } from '../front-matter.js';
import { readSmallFile } from '../read-small-file.js';
import { realFolder } from '../real-folder.js';
import { agentFolders } from './agent-folders.js';
import { agentModel } from './agent-model.js';

/** A subagent type read from a Markdown file, and the file. */
export type AgentFile = SubagentType & { readonly file: string };

/** The agent files found, in the order they win (the project's first), and what was wrong. */
export type AgentFileList = {
  readonly agents: readonly AgentFile[];
  readonly problems: readonly string[];
};

/** An agent file larger than this is reported, not read (bytes). */
const MAX_FILE_BYTES = 256 * 1024;
/** Files read at most per folder. */
const MAX_FILES = 200;
/** A name as Claude Code asks for it: lower-case letters, digits and hyphens. */
const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * Reads subagent types from Markdown files as Claude Code defines them: the project's
 * `.toolplane/agents/` and `.claude/agents/` (only when `projectTrusted`: an untrusted repository
 * must not brief the model's helpers), then the person's `~/.toolplane/agents/` and
 * `~/.claude/agents/`. Front matter `name` and `description` are required, `tools` (a list, or
 * comma-separated) narrows the tools, `model` names the model (`inherit`, or absent: the session's);
 * the body is the type's system prompt. The first file of a name wins and a later one is reported;
 * a file that cannot be read or parsed is reported with its line and skipped.
 */
export function loadAgentFiles(options: {
  readonly cwd: string;
  readonly homeDir: string;
  readonly projectTrusted: boolean;
}): AgentFileList {
  const problems: string[] = [];
  const byName = new Map<string, AgentFile>();
  const { project, user } = agentFolders(options);
  if (!options.projectTrusted) {
    // Run in the home folder, the project's folders are the person's, read below as theirs.
    const own = new Set(user.map(realFolder));
    const skipped = project.filter((folder) => realFolder(folder) !== undefined && !own.has(realFolder(folder)));
    if (skipped.length > 0)
      problems.push(`${skipped.join(', ')}: not read, this folder is not trusted (toolplane trust, or /trust)`);
  }
  const seen = new Set<string>();
  for (const folder of options.projectTrusted ? [...project, ...user] : user) {
    // Run in the home folder, the project's folders are the person's: read once.
    const real = realFolder(folder);
    if (real === undefined || seen.has(real)) continue;
    seen.add(real);
    for (const file of agentFiles(folder, problems)) {
      const agent = readAgent(file, problems);
      if (agent === undefined) continue;
      const earlier = byName.get(agent.name);
      if (earlier) problems.push(`${file}: not used, the agent ${agent.name} is defined already by ${earlier.file}`);
      else byName.set(agent.name, agent);
    }
  }
  return { agents: [...byName.values()], problems };
}

function agentFiles(folder: string, problems: string[]): string[] {
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.toLowerCase().endsWith('.md'));
  } catch (error) {
    problems.push(`${folder}: cannot be listed (${describeError(error)})`);
    return [];
  }
  names.sort();
  if (names.length > MAX_FILES) problems.push(`${folder}: more than ${MAX_FILES} agent files; the rest are not read`);
  return names.slice(0, MAX_FILES).map((name) => path.join(folder, name));
}

function readAgent(file: string, problems: string[]): AgentFile | undefined {
  const read = readSmallFile(file, MAX_FILE_BYTES);
  if (!read.ok) {
    problems.push(`${file}: ${read.reason}; the agent is not available`);
    return undefined;
  }
  const parsed = parseAgentFile(read.text);
  if (typeof parsed === 'string') {
    problems.push(`${file}: ${parsed}; the agent is not available`);
    return undefined;
  }
  for (const notice of parsed.notices) problems.push(`${file}: ${notice}`);
  return { ...parsed.agent, file };
}

/** Front matter keys read; `color` is only how Claude Code draws the agent. */
const KNOWN_KEYS = new Set(['name', 'description', 'tools', 'disallowedTools', 'model', 'maxTurns', 'color']);

/**
 * An agent file's type and notices for the person, or why it cannot be one (`line N: reason`).
 * A key toolplane does not apply (`permissionMode`, `hooks`, …) is named in a notice, never
 * dropped without a word; a model alias keeps the session's model ({@link agentModel}). Pure.
 */
export function parseAgentFile(
  text: string,
): { readonly agent: SubagentType; readonly notices: readonly string[] } | string {
  const split = splitFrontMatter(text);
  if (!split.ok) return `line ${split.line}: ${split.message}`;
  const values = split.frontMatter;
  const name = scalar(values, 'name');
  const description = scalar(values, 'description');
  if (name === undefined || description === undefined) return 'the front matter needs a name and a description';
  if (!NAME.test(name)) return `the name ${JSON.stringify(name)} must be lower-case letters, digits and hyphens`;
  const tools = toolList(values.get('tools'), 'tools');
  if (typeof tools === 'string') return tools;
  const disallowedTools = toolList(values.get('disallowedTools'), 'disallowedTools');
  if (typeof disallowedTools === 'string') return disallowedTools;
  const maxTurns = values.get('maxTurns');
  if (maxTurns !== undefined && !(typeof maxTurns === 'number' && Number.isInteger(maxTurns) && maxTurns > 0))
    return 'maxTurns must be a whole number above 0';
  const model = agentModel(scalar(values, 'model'));
  const ignored = [...values.keys()].map(String).filter((key) => !KNOWN_KEYS.has(key));
  const notices = [
    ...(model.notice === undefined ? [] : [model.notice]),
    ...(ignored.length === 0 ? [] : [`${ignored.join(', ')}: not applied by toolplane, ignored`]),
  ];
  const agent: SubagentType = {
    name,
    description,
    ...(tools === undefined ? {} : { tools }),
    ...(disallowedTools === undefined ? {} : { disallowedTools }),
    ...(typeof maxTurns === 'number' ? { maxTurns } : {}),
    ...(split.body === '' ? {} : { system: split.body }),
    ...(model.model === undefined ? {} : { model: model.model }),
  };
  return { agent, notices };
}

function scalar(values: FrontMatter, key: string): string | undefined {
  const value = values.get(key);
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value).trim();
  return text === '' ? undefined : text;
}

/** `tools: Read, Grep` or a list; absent: undefined. */
function toolList(value: unknown, key: string): readonly string[] | undefined | string {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(',') : undefined;
  if (items === undefined) return `${key} must be a list or comma-separated names`;
  return items.map((item) => item.trim()).filter((item) => item !== '');
}
