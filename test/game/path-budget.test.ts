import type { Bot } from 'mineflayer';
import { describe, expect, it } from 'vitest';
import { joinPathBudget, perBotThinkMs, PATH_BUDGET_MS } from '../../src/game/path-budget.ts';

/** Just the part of a bot the budget touches. */
function bot(): Bot {
  return { pathfinder: { tickTimeout: 40 } } as unknown as Bot;
}

describe('path budget', () => {
  it('GIVEN 1, 2, 25 or 100 bots THEN they share one budget per tick, each thinking at least 1 ms', () => {
    expect(perBotThinkMs(1)).toBe(PATH_BUDGET_MS);
    expect(perBotThinkMs(2)).toBe(PATH_BUDGET_MS / 2);
    expect(perBotThinkMs(25)).toBe(1);
    expect(perBotThinkMs(100)).toBe(1);
    expect(perBotThinkMs(0)).toBe(PATH_BUDGET_MS);
  });

  it('GIVEN bots joining and leaving THEN every connected bot gets the current share', () => {
    const a = bot();
    const b = bot();
    const leaveA = joinPathBudget(a);
    expect(a.pathfinder.tickTimeout).toBe(PATH_BUDGET_MS);
    const leaveB = joinPathBudget(b);
    expect(a.pathfinder.tickTimeout).toBe(PATH_BUDGET_MS / 2);
    expect(b.pathfinder.tickTimeout).toBe(PATH_BUDGET_MS / 2);
    leaveA();
    leaveA();
    expect(b.pathfinder.tickTimeout).toBe(PATH_BUDGET_MS);
    leaveB();
  });
});
