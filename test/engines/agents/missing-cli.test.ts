/**
 * An agent engine whose CLI is not installed is refused in plain words, naming the npm package to install.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_KINDS, type AgentSetup } from '../../../src/engines/agents/agent-cli.ts';
import { AGENT_CLIS, createAgentEngine } from '../../../src/engines/agents/agents.ts';
import { silentLogger } from '../../../src/logger.ts';
import { TaskFile } from '../../../src/task/task-file.ts';
import { FakeGame } from '../../fakes/fake-game.ts';

const log = silentLogger();

describe('the agent engines with a CLI missing', () => {
  it('GIVEN no CLI in AGENTS_DIR nor on PATH THEN the engine is refused, naming the npm package to install', () => {
    const empty = mkdtempSync(join(tmpdir(), 'mindlink-noagents-'));
    const ctx = { avatar: 'steve', game: new FakeGame('steve'), log, skills: { list: () => [], get: () => undefined, run: async () => ({ ok: false, code: 'unknown_skill', detail: 'none' }) }, task: new TaskFile(empty, 'steve') };
    const setup: AgentSetup = { agentsDir: empty, dataDir: empty, timeoutMs: 60_000, models: {}, anthropic: {}, baseEnv: { PATH: empty } };
    for (const kind of AGENT_KINDS) {
      const { name, version } = AGENT_CLIS[kind].npm;
      expect(() => createAgentEngine(kind, ctx, setup)).toThrow(`The ${kind} engine needs its CLI (npm package ${name}@${version}), which is not installed: run \`npm run agents:install -- ${kind}\``);
    }
    rmSync(empty, { recursive: true, force: true });
  });
});
