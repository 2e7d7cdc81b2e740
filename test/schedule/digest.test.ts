import { describe, expect, it } from 'vitest';
import { buildDigest, formatMinutes, usageSince, type DigestInput } from '../../src/schedule/digest.ts';
import { newAvatarRecord, type GoalRecordEntry } from '../../src/store/store.ts';

const since = new Date('2026-11-30T20:00:00Z');
const now = new Date('2026-12-01T20:00:00Z');

function entry(text: string, outcome: GoalRecordEntry['outcome'], ended: string, note?: string): GoalRecordEntry {
  return { avatar: 'steve', text, setBy: 'owner', setById: 'alice', started: '2026-11-30T00:00:00.000Z', ended, outcome, ...(note ? { note } : {}) };
}

function input(over: Partial<DigestInput> = {}): DigestInput {
  return { avatar: newAvatarRecord('steve', 'alice', 'embedded', 'scripted', true, since), goals: [], since, now, zone: 'UTC', playedMinutes: 0, usage: null, ...over };
}

describe('the digest of one avatar', () => {
  it('GIVEN a day with nothing to say THEN there is no digest', () => {
    expect(buildDigest(input())).toBeNull();
    // Goals from before the span do not count.
    expect(buildDigest(input({ goals: [entry('old goal', 'done', '2026-11-30T19:00:00.000Z')] }))).toBeNull();
  });

  it('GIVEN finished, parked and blocked goals, a retired direction, time played and usage THEN each gets its line', () => {
    const avatar = newAvatarRecord('steve', 'alice', 'embedded', 'llm', true, since);
    avatar.directions.done.push({ n: 3, text: 'stay near the spawn', at: '2026-11-29T00:00:00.000Z', by: 'alice', doneAt: '2026-12-01T10:00:00.000Z' });
    avatar.directions.done.push({ n: 1, text: 'long retired', at: '2026-11-01T00:00:00.000Z', by: 'alice', doneAt: '2026-11-02T10:00:00.000Z' });
    const text = buildDigest(
      input({
        avatar,
        zone: 'Europe/Berlin',
        goals: [
          entry('collect 3 oak logs', 'done', '2026-12-01T09:00:00.000Z'),
          entry('mine 5 **stone**', 'done', '2026-12-01T11:00:00.000Z'),
          entry('craft a wooden pickaxe', 'parked', '2026-12-01T12:00:00.000Z', 'blocked repeatedly'),
          entry('explore', 'blocked', '2026-12-01T13:00:00.000Z'),
          entry('go home', 'replaced', '2026-12-01T14:00:00.000Z'),
        ],
        playedMinutes: 125,
        usage: { promptTokens: 12_000, completionTokens: 345, requests: 14 },
      }),
    );
    expect(text).toBe(
      [
        'Digest since Mon 30 Nov 21:00 Europe/Berlin:',
        'Finished 2: collect 3 oak logs; mine 5 stone',
        'Parked or blocked 2: craft a wooden pickaxe (parked: blocked repeatedly); explore (blocked)',
        'Direction retired: #3 stay near the spawn',
        'Played 2 h 05 min · 12,345 tokens (12,000 in, 345 out) in 14 requests',
      ].join('\n'),
    );
  });

  it('GIVEN many finished goals THEN the list is cut and the rest counted', () => {
    const goals = Array.from({ length: 9 }, (_, i) => entry(`goal ${i}`, 'done', `2026-12-01T1${i}:00:00.000Z`));
    expect(buildDigest(input({ goals }))?.split('\n')[1]).toBe('Finished 9: goal 0; goal 1; goal 2; goal 3; goal 4; goal 5; +3 more');
  });

  it('GIVEN only time played THEN the digest says so and that no goal was finished', () => {
    expect(buildDigest(input({ playedMinutes: 45 }))).toBe('Digest since Mon 30 Nov 20:00 UTC:\nNo goal finished.\nPlayed 45 min');
  });

  it('GIVEN cumulative usage readings THEN the span is their difference, and none when unchanged', () => {
    const then = { promptTokens: 100, completionTokens: 10, requests: 2 };
    expect(usageSince({ promptTokens: 150, completionTokens: 30, requests: 3 }, then)).toEqual({ promptTokens: 50, completionTokens: 20, requests: 1 });
    expect(usageSince(then, then)).toBeNull();
    expect(usageSince(undefined, undefined)).toBeNull();
    expect(formatMinutes(60)).toBe('1 h 00 min');
  });
});
