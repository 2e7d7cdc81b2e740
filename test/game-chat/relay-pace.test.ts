import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fitLines, RelayPace } from '../../src/game-chat/relay-pace.ts';

describe('the chat relay’s pace', () => {
  let posts: { dest: string; avatar: string; text: string; at: number }[];
  let pace: RelayPace;

  beforeEach(() => {
    vi.useFakeTimers();
    posts = [];
    pace = new RelayPace({ post: (dest, avatar, text) => posts.push({ dest, avatar, text, at: Date.now() }), now: () => Date.now() });
  });

  afterEach(() => {
    pace.stop();
    vi.useRealTimers();
  });

  it('GIVEN one line THEN it is posted a second later, alone', () => {
    const start = Date.now();
    pace.add('discord:1', 'demo', '<alice> hi');
    vi.advanceTimersByTime(999);
    expect(posts).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(posts).toEqual([{ dest: 'discord:1', avatar: 'demo', text: '<alice> hi', at: start + 1000 }]);
  });

  it('GIVEN 20 lines in 2 s THEN they are at most 3 posts, every line once and in order', () => {
    for (let i = 1; i <= 20; i++) {
      pace.add('discord:1', 'demo', `<alice> line ${i}`);
      vi.advanceTimersByTime(100);
    }
    vi.advanceTimersByTime(10_000);
    expect(posts.length).toBeLessThanOrEqual(3);
    expect(posts.flatMap((p) => p.text.split('\n'))).toEqual(Array.from({ length: 20 }, (_, i) => `<alice> line ${i + 1}`));
    for (let i = 1; i < posts.length; i++) expect((posts[i]?.at ?? 0) - (posts[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(3000);
  });

  it('GIVEN a line every 500 ms for a minute THEN posts are 3 s apart, never more often', () => {
    for (let i = 0; i < 120; i++) {
      pace.add('discord:1', 'demo', `<alice> ${i}`);
      vi.advanceTimersByTime(500);
    }
    vi.advanceTimersByTime(5000);
    const gaps = posts.slice(1).map((p, i) => p.at - (posts[i]?.at ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(3000);
    expect(posts.flatMap((p) => p.text.split('\n'))).toHaveLength(120);
  });

  it('GIVEN two chats and two avatars THEN each relay is paced on its own', () => {
    pace.add('discord:1', 'demo', 'a');
    pace.add('telegram:2', 'demo', 'b');
    pace.add('discord:1', 'rover', 'c');
    vi.advanceTimersByTime(1000);
    expect(posts.map((p) => [p.dest, p.avatar, p.text])).toEqual([
      ['discord:1', 'demo', 'a'],
      ['telegram:2', 'demo', 'b'],
      ['discord:1', 'rover', 'c'],
    ]);
  });

  it('GIVEN a relay dropped with lines waiting THEN nothing of it is posted', () => {
    pace.add('discord:1', 'demo', 'a');
    pace.drop((dest) => dest === 'discord:1');
    vi.advanceTimersByTime(5000);
    expect(posts).toEqual([]);
  });

  it('GIVEN more lines than fit THEN a post keeps the newest and says how many it left out', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `<alice> ${String(i).padStart(3, '0')} ${'x'.repeat(40)}`);
    const text = fitLines(lines, 1800);
    expect(text.length).toBeLessThanOrEqual(1800);
    const kept = text.split('\n');
    expect(kept[0]).toMatch(/^\((\d+) earlier lines left out\)$/);
    const left = Number(/\d+/.exec(kept[0] ?? '')?.[0]);
    expect(left + kept.length - 1).toBe(100);
    expect(kept.at(-1)).toBe(lines.at(-1));
    expect(fitLines(['one'], 1800)).toBe('one');
  });
});
