/**
 * A store on real files with two people and one avatar, and a recording
 * {@link ScheduleHost} whose goal changes land in that store as the core's would.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScheduleHost } from '../../src/schedule/scheduler.ts';
import { newAvatarRecord, Store, type Destination } from '../../src/store/store.ts';
import { filesOf } from '../../src/store/files.ts';

export interface Posted {
  dest: Destination;
  avatar: string | null;
  text: string;
}

/** alice owns steve (linked to telegram:100); bob is known but owns nothing. */
export async function seededStore(): Promise<{ dir: string; store: Store }> {
  const dir = await mkdtemp(join(tmpdir(), 'mindlink-schedule-'));
  const store = await Store.open(dir);
  filesOf(store).state.update((s) => {
    s.persons.push({ id: 'alice', name: 'alice', identities: ['telegram:1'], admin: false });
    s.persons.push({ id: 'bob', name: 'bob', identities: ['telegram:2'], admin: false });
    s.avatars.push(newAvatarRecord('steve', 'alice', 'embedded', 'scripted', true, new Date('2026-11-01T00:00:00Z')));
    s.links.push({ avatar: 'steve', dest: 'telegram:100', mode: 'control', createdAt: '2026-11-01T00:00:00.000Z' });
  });
  await store.flush();
  return { dir, store };
}

export class RecordingHost implements ScheduleHost {
  readonly playing = new Set<string>(['steve']);
  readonly posts: Posted[] = [];
  readonly goalsSet: { avatar: string; text: string; personId: string }[] = [];
  readonly parked: { avatar: string; text: string; personId: string; reason: string }[] = [];
  private waiters: { re: RegExp; from: number; resolve: (p: Posted) => void }[] = [];

  constructor(private readonly store: Store) {}

  isPlaying(avatar: string): boolean {
    return this.playing.has(avatar);
  }

  inGame(avatar: string): boolean {
    return this.playing.has(avatar);
  }

  setGoal(avatar: string, text: string, personId: string): void {
    this.goalsSet.push({ avatar, text, personId });
    this.setCurrent(avatar, text, 'owner', personId);
  }

  parkGoal(avatar: string, text: string, personId: string, reason: string): void {
    this.parked.push({ avatar, text, personId, reason });
    filesOf(this.store).state.update((s) => s.avatars.find((a) => a.name === avatar)?.parked.push({ text, setById: personId, parkedAt: new Date().toISOString(), reason }));
  }

  post(dest: Destination, avatar: string | null, text: string): void {
    const p = { dest, avatar, text };
    this.posts.push(p);
    for (const w of [...this.waiters]) {
      if (w.re.test(text)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(p);
      }
    }
  }

  /** The avatar's current goal, as the loop would store it. */
  setCurrent(avatar: string, text: string, setBy: 'owner' | 'self', setById: string | null): void {
    filesOf(this.store).state.update((s) => {
      const rec = s.avatars.find((a) => a.name === avatar);
      if (rec) rec.goal = { text, setBy, setById, startedAt: new Date().toISOString(), baseline: null, runToken: randomUUID() };
    });
  }

  /** The first post (already made or still to come) matching. */
  posted(re: RegExp): Promise<Posted> {
    const found = this.posts.find((p) => re.test(p.text));
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ re, from: this.posts.length, resolve }));
  }
}
