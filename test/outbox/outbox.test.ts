import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Outbox, platformOf } from '../../src/outbox/outbox.ts';
import type { Store } from '../../src/store/store.ts';
import type { Post } from '../../src/store/schema.ts';
import { BACKENDS } from '../store/backends.ts';
import { tempDir } from './helpers.ts';

describe.each(BACKENDS)('Outbox (the store in $name)', (backend) => {
  let dir: string;
  let remove: (() => Promise<void>) | undefined;
  let store: Store | undefined;
  const opened: Store[] = [];
  const open = async (): Promise<Store> => {
    const s = await backend.open(dir);
    opened.push(s);
    return s;
  };

  beforeAll(async () => {
    if (backend.available) await backend.start();
  }, 120_000);
  afterAll(() => backend.stop());

  beforeEach(async ({ skip }) => {
    if (!backend.available) skip('PostgreSQL is not installed');
    ({ dir, remove } = await tempDir());
    await backend.fresh();
    store = await open();
  });

  afterEach(async () => {
    for (const s of opened.splice(0)) {
      await s.flush();
      s.close();
    }
    await backend.done();
    await remove?.();
  });

  it('GIVEN destinations of every platform THEN platformOf names the platform', () => {
    expect(platformOf('console')).toBe('console');
    expect(platformOf('telegram:-100123')).toBe('telegram');
    expect(platformOf('telegram:42:7')).toBe('telegram');
    expect(platformOf('discord:123456')).toBe('discord');
  });

  it('GIVEN posts THEN ids come from the sequence, each is announced, and pending lists a platform in creation order', () => {
    const outbox = new Outbox(store as Store);
    const seen: Post[] = [];
    outbox.on('posted', (p) => seen.push(p));
    const a = outbox.post({ dest: 'telegram:1', avatar: 'demo', text: 'a', kind: 'reply' });
    outbox.post({ dest: 'console', avatar: null, text: 'b', kind: 'info' });
    const c = outbox.post({ dest: 'telegram:-5', avatar: 'demo', text: 'c', kind: 'done', ping: 'telegram:9', replyTo: '77' });
    expect([a.id, c.id]).toEqual(['p000001', 'p000003']);
    expect(a).toMatchObject({ ping: null, replyTo: null, attempts: 0, notBefore: 0 });
    expect(c).toMatchObject({ ping: 'telegram:9', replyTo: '77' });
    expect(seen.map((p) => p.text)).toEqual(['a', 'b', 'c']);
    expect(outbox.pending('telegram').map((p) => p.text)).toEqual(['a', 'c']);
    expect(outbox.pending('console').map((p) => p.text)).toEqual(['b']);
    expect(outbox.pending('discord')).toEqual([]);
  });

  it('GIVEN posts, a retry, a delivery and a dropped chat WHEN the store is reopened THEN exactly that state is there and the sequence continues', async () => {
    const outbox = new Outbox(store as Store);
    const a = outbox.post({ dest: 'telegram:1', avatar: 'demo', text: 'a', kind: 'reply' });
    const b = outbox.post({ dest: 'telegram:1', avatar: 'demo', text: 'b', kind: 'reply' });
    outbox.post({ dest: 'discord:2', avatar: null, text: 'c', kind: 'info' });
    outbox.post({ dest: 'discord:2', avatar: null, text: 'd', kind: 'info' });
    outbox.post({ dest: 'console', avatar: null, text: 'e', kind: 'info' });
    outbox.delivered([a.id, 'p999999']);
    outbox.retryLater(b.id, 5000, 1_000_000);
    expect(outbox.dropDest('discord:2').map((p) => p.text)).toEqual(['c', 'd']);
    await store?.flush();

    const reopened = await open();
    const again = new Outbox(reopened);
    expect(again.all().map((p) => p.text)).toEqual(['b', 'e']);
    expect(again.get(b.id)).toMatchObject({ attempts: 1, notBefore: 1_005_000 });
    expect(again.post({ dest: 'console', avatar: null, text: 'f', kind: 'info' }).id).toBe('p000006');
  });

  it('GIVEN pending posts of a chat that moved WHEN moveDest runs and the store is reopened THEN they wait for the new chat, in order, with their retry state', async () => {
    const outbox = new Outbox(store as Store);
    const a = outbox.post({ dest: 'telegram:-4200', avatar: 'demo', text: 'a', kind: 'reply' });
    outbox.post({ dest: 'telegram:5', avatar: 'demo', text: 'b', kind: 'reply' });
    outbox.post({ dest: 'telegram:-4200', avatar: 'demo', text: 'c', kind: 'info' });
    outbox.retryLater(a.id, 5000, 1_000_000);
    expect(outbox.moveDest('telegram:-4200', 'telegram:-1004200').map((p) => p.text)).toEqual(['a', 'c']);
    expect(outbox.moveDest('telegram:-4200', 'telegram:-1004200')).toEqual([]);
    await store?.flush();

    const reopened = await open();
    const again = new Outbox(reopened);
    expect(again.all().map((p) => `${p.dest} ${p.text}`)).toEqual(['telegram:-1004200 a', 'telegram:5 b', 'telegram:-1004200 c']);
    expect(again.get(a.id)).toMatchObject({ attempts: 1, notBefore: 1_005_000 });
  });

  it('GIVEN an undeliverable post THEN drop removes it and nothing else', () => {
    const outbox = new Outbox(store as Store);
    const a = outbox.post({ dest: 'telegram:1', avatar: 'demo', text: 'a', kind: 'reply' });
    outbox.post({ dest: 'telegram:1', avatar: 'demo', text: 'b', kind: 'reply' });
    outbox.drop(a.id);
    expect(outbox.all().map((p) => p.text)).toEqual(['b']);
  });
});
