/**
 * The scripted engine against the real embedded world (flying-squid in a child
 * process) and a real mineflayer avatar: "collect 3 oak logs" reaches done,
 * "craft a wooden pickaxe" from an empty inventory gathers, crafts and places
 * its way to the pickaxe, and "craft an iron pickaxe" from nothing goes on
 * through stone tools, a furnace, raw iron and smelting.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { TurnRequest } from '../../src/engines/engine.ts';
import { createScriptedEngine } from '../../src/engines/scripted.ts';
import { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import { EMBEDDED_CAPABILITIES, MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { checkGoal } from '../../src/goals/check.ts';
import { TaskFile } from '../../src/task/task-file.ts';
import { createSkillRegistry } from '../../skills/index.ts';
import { completionOn } from './avatar-game-stub.ts';

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }, pino.destination(2));

describe('scripted engine in the embedded world', () => {
  let dir: string;
  let world: EmbeddedWorld;
  let game: MineflayerGame;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mindlink-scripted-'));
    world = await EmbeddedWorld.start({ dataDir: dir, log });
    game = new MineflayerGame({ username: 'scripty', host: world.host, port: world.port, version: world.version, log, capabilities: EMBEDDED_CAPABILITIES });
    const connected = new Promise<void>((resolve) => game.once('connected', () => resolve()));
    await game.start();
    await connected;
  }, 90_000);

  afterAll(async () => {
    await game?.stop();
    await world?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('GIVEN the goal "collect 3 oak logs" THEN continue turns reach STATUS done, and the check agrees', async () => {
    const engine = createScriptedEngine({ avatar: 'scripty', game, log, skills: createSkillRegistry(game), task: new TaskFile(path.join(dir, 'avatars', 'scripty'), 'scripty') });
    const baseline = { ...(game.snapshot()?.inventory ?? {}) };
    const goal = { text: 'collect 3 oak logs', setBy: 'owner' as const, baseline };
    const req: TurnRequest = { kind: 'continue', avatar: 'scripty', goal, directionSummary: '', directions: [], task: '', nudges: [], prompt: 'continue', completion: completionOn(game, goal) };
    let status = 'working';
    const replies: string[] = [];
    for (let turn = 0; turn < 4 && status === 'working'; turn += 1) {
      // Like the goal loop, prompt only while the game is connected.
      if (game.state !== 'connected') await new Promise<void>((resolve) => game.once('connected', () => resolve()));
      const reply = await engine.turn(req, new AbortController().signal);
      replies.push(reply.report.text);
      status = reply.report.status;
    }
    expect(status, replies.join('\n---\n')).toBe('done');
    const snap = game.snapshot();
    expect(snap).toBeDefined();
    if (snap) expect(checkGoal(goal.text, baseline, snap)).toMatchObject({ checkable: true, met: true });
  }, 240_000);

  it('GIVEN an avatar with nothing and the goal "craft a wooden pickaxe" THEN it gathers logs, crafts planks, sticks and a table, places it, and reaches done', async () => {
    const crafty = new MineflayerGame({ username: 'crafty', host: world.host, port: world.port, version: world.version, log, capabilities: EMBEDDED_CAPABILITIES });
    const connected = new Promise<void>((resolve) => crafty.once('connected', () => resolve()));
    await crafty.start();
    try {
      await connected;
      expect(crafty.snapshot()?.inventory).toEqual({});
      const engine = createScriptedEngine({ avatar: 'crafty', game: crafty, log, skills: createSkillRegistry(crafty), task: new TaskFile(path.join(dir, 'avatars', 'crafty'), 'crafty') });
      const goal = { text: 'craft a wooden pickaxe', setBy: 'owner' as const, baseline: {} };
      const req: TurnRequest = { kind: 'continue', avatar: 'crafty', goal, directionSummary: '', directions: [], task: '', nudges: [], prompt: 'continue', completion: completionOn(crafty, goal) };
      let status = 'working';
      const replies: string[] = [];
      // logs, planks, sticks, table, pickaxe: five steps, with room for a retry or two.
      for (let turn = 0; turn < 10 && status === 'working'; turn += 1) {
        if (crafty.state !== 'connected') await new Promise<void>((resolve) => crafty.once('connected', () => resolve()));
        const reply = await engine.turn(req, new AbortController().signal);
        replies.push(reply.report.text);
        status = reply.report.status;
      }
      expect(status, replies.join('\n---\n')).toBe('done');
      expect(crafty.snapshot()?.inventory.wooden_pickaxe).toBe(1);
      expect(replies.join('\n')).toMatch(/crafted \d+ oak_planks/);
      expect(replies.join('\n')).toMatch(/crafted 4 stick/);
      expect(replies.join('\n')).toMatch(/crafted 1 crafting_table/);
      const inv = await world.inventory('crafty');
      expect(Object.values(inv.slots).find((i) => i.name === 'wooden_pickaxe')).toEqual({ name: 'wooden_pickaxe', count: 1 });
    } finally {
      await crafty.stop();
    }
  }, 300_000);
});
