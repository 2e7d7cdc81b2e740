/**
 * What the agent engines' tests share: which CLIs are installed (a test of one
 * that is not is skipped, saying how to install it, except under
 * `MINDLINK_AGENTS_REQUIRED=1`, set by CI, where it fails), a model for both
 * fake APIs that collects when it is offered a `…collect` tool and reports
 * done after the result, the live processes working in a folder, and the
 * places the CLIs write to when they are not confined.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnvironment, parseConfig } from '../../../src/config.ts';
import { AGENT_CLIS } from '../../../src/engines/agents/agents.ts';
import type { AgentKind } from '../../../src/engines/agents/agent-cli.ts';
import { bringsToolResult, userTexts, type AnthropicReply, type RecordedMessagesRequest } from '../../fakes/anthropic-api.ts';
import { lastMessage, textOf, type FakeReply, type RecordedRequest } from '../../fakes/openai-api.ts';

/** Where `npm run agents:install` puts the CLIs (the config's default). */
export const AGENTS_DIR = parseConfig({}).AGENTS_DIR;

/** Whether an agent CLI is installed (in `agents/` or on PATH). */
export function installed(kind: AgentKind): boolean {
  return AGENT_CLIS[kind].locate({ agentsDir: AGENTS_DIR, baseEnv: childEnvironment() }) !== null;
}

/** CI installs every CLI first and sets this: a missing one is then a failure, not a skip. */
export const REQUIRED = process.env.MINDLINK_AGENTS_REQUIRED === '1';

/**
 * The title of a CLI's suite, saying when it is skipped and why; and whether to skip it.
 *
 * @example
 * const s = suite('pi'); describe.skipIf(s.skip)(s.title, () => …);
 */
export function suite(kind: AgentKind): { title: string; skip: boolean } {
  const here = installed(kind);
  const { name, version } = AGENT_CLIS[kind].npm;
  if (!here && REQUIRED) throw new Error(`${kind}: ${name}@${version} is not installed, and MINDLINK_AGENTS_REQUIRED=1: run npm run agents:install -- ${kind}`);
  return { title: here ? `${kind} (${name}@${version})` : `${kind}: SKIPPED, ${name}@${version} is not installed (npm run agents:install -- ${kind})`, skip: !here };
}

/** The model of the OpenAI-compatible fake: collects 2 oak logs when it may, then says done; idles otherwise. */
export function openaiCollector(item = 'oak_log', count = 2): (req: RecordedRequest) => FakeReply {
  return (req) => {
    if (lastMessage(req)?.role === 'tool') return { content: `I have the ${count} logs now.\nSTATUS: done` };
    const collect = (req.body.tools ?? []).map((t) => t.function.name).find((n) => /collect$/.test(n));
    const wants = req.body.messages.some((m) => m.role === 'user' && /collect \d+ oak log/.test(textOf(m.content)));
    if (collect && wants) return { content: 'Going for the logs.', toolCalls: [{ name: collect, arguments: { item, count } }] };
    return { content: 'Waiting for a goal.\nSTATUS: working' };
  };
}

/** The same model on the Anthropic fake. */
export function anthropicCollector(item = 'oak_log', count = 2): (req: RecordedMessagesRequest) => AnthropicReply {
  return (req) => {
    if (bringsToolResult(req)) return { content: `I have the ${count} logs now.\nSTATUS: done` };
    const collect = (req.body.tools ?? []).map((t) => t.name).find((n) => /collect$/.test(n));
    const wants = userTexts(req).some((t) => /collect \d+ oak log/.test(t));
    if (collect && wants) return { content: 'Going for the logs.', toolUses: [{ name: collect, input: { item, count } }] };
    return { content: 'Waiting for a goal.\nSTATUS: working' };
  };
}

/** The live processes (not zombies) whose working directory is `dir` or inside it. */
export function processesIn(dir: string): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = readlinkSync(join('/proc', entry, 'cwd'));
      if (cwd !== dir && !cwd.startsWith(`${dir}/`)) continue;
      const stat = readFileSync(join('/proc', entry, 'stat'), 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'Z') continue;
      out.push({ pid: Number(entry), cmd: readFileSync(join('/proc', entry, 'cmdline'), 'utf8').replace(/\0/g, ' ').slice(0, 120) });
    } catch (err) {
      // A process that ended while it was looked at, or one of another user: not one of ours.
      if (!['ENOENT', 'EACCES', 'ESRCH'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    }
  }
  return out;
}

/** The places the CLIs write to by default (their home folders and temp files), each with its mtime, or null when absent. */
export function defaultPlaces(): Record<string, number | null> {
  const home = homedir();
  const places = [
    join(home, '.claude'),
    join(home, '.claude.json'),
    join(home, '.config', 'opencode'),
    join(home, '.local', 'share', 'opencode'),
    join(home, '.local', 'state', 'opencode'),
    join(home, '.cache', 'opencode'),
    join(home, '.cache', 'claude-cli-nodejs'),
    join(home, '.pi'),
    join(tmpdir(), 'cc-socks'),
    join(tmpdir(), 'opencode'),
    join(tmpdir(), `claude-${process.getuid?.() ?? 0}`),
    join(tmpdir(), 'jiti'),
  ];
  const out: Record<string, number | null> = {};
  for (const p of places) out[p] = existsSync(p) ? statSync(p).mtimeMs : null;
  return out;
}

/** Files in `dir` whose names look like what opencode extracts into its temp folder (`.…-00000000.so`). */
export function strayLibraries(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((n) => /^\..*\.so$/.test(n)) : [];
}
