import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TurnSummary } from '../src/loop/goal-loop.ts';
import { Store } from '../src/store/store.ts';
import { coalesce, summaryLine, ThoughtStream } from '../src/thought-stream.ts';
import { filesOf } from '../src/store/files.ts';

const turn = (says: string, actions: TurnSummary['actions'] = [{ skill: 'collect', ok: true, code: 'ok' }]): TurnSummary => ({
  kind: 'continue',
  status: 'working',
  actions,
  says,
});

describe('thought stream', () => {
  let dir: string;
  let store: Store;
  let posts: { dest: string; avatar: string; text: string; at: number }[];
  let stream: ThoughtStream;

  beforeEach(async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    dir = await mkdtemp(join(tmpdir(), 'mindlink-thoughts-'));
    store = await Store.open(dir);
    filesOf(store).state.update((s) => s.links.push({ avatar: 'steve', dest: 'discord:10', mode: 'control', createdAt: '' }));
    posts = [];
    stream = new ThoughtStream({ store, post: (dest, avatar, text) => posts.push({ dest, avatar, text, at: Date.now() }), now: () => Date.now() });
  });

  afterEach(async () => {
    stream.stop();
    vi.useRealTimers();
    await store.flush();
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN a turn THEN one line names its kind, its skill runs and its result', () => {
    expect(summaryLine(turn('Collected 3 oak logs.'))).toBe('continue · collect ok · working — Collected 3 oak logs.');
    expect(summaryLine({ kind: 'choose', status: 'working', actions: [], says: '' })).toBe('choose · no skill run · working');
    expect(summaryLine(turn('x', [{ skill: 'go_to', ok: false, code: 'no_path' }, { skill: 'explore', ok: true, code: 'ok' }]))).toBe(
      'continue · go_to no_path, explore ok · working — x',
    );
  });

  it('GIVEN a hybrid avatar\'s turns THEN each line says who played it: the scripted engine or the model', () => {
    expect(summaryLine({ ...turn('Collected 3 oak logs.'), playedBy: { engine: 'scripted', model: false } })).toBe('continue (scripted) · collect ok · working — Collected 3 oak logs.');
    expect(summaryLine({ ...turn('Kept it.', [{ skill: 'write_skill', ok: true, code: 'kept' }]), status: 'done', playedBy: { engine: 'llm', model: true } })).toBe(
      'continue (model: llm) · write_skill ok · done — Kept it.',
    );
  });

  it('GIVEN a busy avatar THEN the thread gets at most one message per 10 s, the turns in between coalesced', () => {
    expect(stream.open('steve', 'discord:11', 'discord:10')).toBe(true);
    expect(stream.open('steve', 'discord:11', 'discord:10')).toBe(false);
    stream.turnEnded('steve', turn('one'));
    expect(posts.map((p) => p.text)).toEqual(['continue · collect ok · working — one']);
    for (const n of ['two', 'three', 'four']) {
      vi.advanceTimersByTime(2000);
      stream.turnEnded('steve', turn(n));
    }
    expect(posts).toHaveLength(1);
    vi.advanceTimersByTime(3999);
    expect(posts).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(posts).toHaveLength(2);
    expect(posts[1]?.text.split('\n')).toEqual(['two', 'three', 'four'].map((n) => `continue · collect ok · working — ${n}`));
    expect(posts[1]!.at - posts[0]!.at).toBe(10_000);
    expect(posts.every((p) => p.dest === 'discord:11' && p.avatar === 'steve')).toBe(true);
  });

  it('GIVEN the stream is closed or its channel unlinked THEN nothing more is posted', () => {
    stream.open('steve', 'discord:11', 'discord:10');
    stream.turnEnded('steve', turn('one'));
    stream.turnEnded('steve', turn('two'));
    expect(stream.close('steve', 'discord:10')).toEqual(['discord:11']);
    vi.advanceTimersByTime(20_000);
    expect(posts).toHaveLength(1);

    stream.open('steve', 'discord:11', 'discord:10');
    filesOf(store).state.update((s) => {
      s.links = [];
    });
    stream.turnEnded('steve', turn('three'));
    vi.advanceTimersByTime(20_000);
    expect(posts).toHaveLength(1);
    expect(store.state.data.streams).toEqual([]);
  });

  it('GIVEN more lines than one message holds THEN the newest are kept and the rest counted', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i} ${'x'.repeat(40)}`);
    const text = coalesce(lines, 2000);
    expect(text.length).toBeLessThanOrEqual(2000);
    expect(text).toMatch(/^\(\d+ earlier turns left out\)\n/);
    expect(text.endsWith(lines[99] as string)).toBe(true);
  });
});
