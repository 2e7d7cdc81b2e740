import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { FakeDiscord, Intent } from './discord-api.ts';

/** A raw gateway connection: payloads in arrival order, and how it closed. */
class RawSocket {
  readonly ws: WebSocket;
  readonly #queue: Record<string, unknown>[] = [];
  readonly #waiting: ((p: Record<string, unknown>) => void)[] = [];
  readonly closed: Promise<number>;

  constructor(url: string) {
    this.ws = new WebSocket(`${url}?v=10&encoding=json`);
    this.ws.on('message', (raw) => {
      const payload = JSON.parse(String(raw)) as Record<string, unknown>;
      const waiter = this.#waiting.shift();
      if (waiter) waiter(payload);
      else this.#queue.push(payload);
    });
    this.closed = once(this.ws, 'close').then(([code]) => code as number);
  }

  next(): Promise<Record<string, unknown>> {
    const queued = this.#queue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  send(payload: unknown): void {
    this.ws.send(typeof payload === 'string' ? payload : JSON.stringify(payload));
  }
}

const fakes: FakeDiscord[] = [];
const sockets: RawSocket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.ws.terminate();
  for (const f of fakes.splice(0)) await f.close();
});

async function start(options: Parameters<typeof FakeDiscord.start>[0] = {}): Promise<{ fake: FakeDiscord; socket: RawSocket }> {
  const fake = await FakeDiscord.start(options);
  fakes.push(fake);
  const socket = new RawSocket(fake.gatewayUrl);
  sockets.push(socket);
  expect(await socket.next()).toEqual({ op: 10, d: { heartbeat_interval: 41_250 } });
  return { fake, socket };
}

const identify = (fake: FakeDiscord, intents: number = Intent.Guilds) => ({
  op: 2,
  d: { token: fake.token, intents, properties: { os: 'linux', browser: 'test', device: 'test' } },
});

describe('fake Discord gateway protocol (raw socket)', () => {
  it('GIVEN an IDENTIFY WHEN the fake answers THEN READY and GUILD_CREATE come numbered from 1, and a heartbeat is acknowledged', async () => {
    const { fake, socket } = await start();
    const guild = fake.addGuild('Home');
    socket.send(identify(fake));

    const ready = await socket.next();
    expect(ready).toMatchObject({ op: 0, s: 1, t: 'READY', d: { guilds: [{ id: guild.id, unavailable: true }], resume_gateway_url: fake.gatewayUrl } });
    expect(await socket.next()).toMatchObject({ op: 0, s: 2, t: 'GUILD_CREATE', d: { id: guild.id, unavailable: false } });
    socket.send({ op: 1, d: 2 });
    expect(await socket.next()).toEqual({ op: 11 });
    expect(fake.heartbeats).toBe(1);
  });

  it('GIVEN a broken payload THEN the fake closes with 4002', async () => {
    const { socket } = await start();
    socket.send('{not json');
    expect(await socket.closed).toBe(4002);
  });

  it('GIVEN a payload over 4096 bytes THEN the fake closes with 4002, as Discord does', async () => {
    const { fake, socket } = await start();
    socket.send({ op: 2, d: { token: fake.token, intents: 1, properties: { os: 'x'.repeat(5000) } } });
    expect(await socket.closed).toBe(4002);
    expect(fake.identifies).toEqual([]);
  });

  it('GIVEN a request before IDENTIFY THEN the fake closes with 4003', async () => {
    const { socket } = await start();
    socket.send({ op: 8, d: { guild_id: '1', query: '', limit: 0 } });
    expect(await socket.closed).toBe(4003);
  });

  it('GIVEN an unknown opcode after IDENTIFY THEN the fake closes with 4001', async () => {
    const { fake, socket } = await start();
    socket.send(identify(fake));
    await socket.next();
    socket.send({ op: 99, d: null });
    expect(await socket.closed).toBe(4001);
  });

  it('GIVEN a wrong token THEN the fake closes with 4004', async () => {
    const { socket } = await start();
    socket.send({ op: 2, d: { token: 'nope', intents: 1, properties: {} } });
    expect(await socket.closed).toBe(4004);
  });

  it('GIVEN intents outside the known bits THEN the fake closes with 4013', async () => {
    const { fake, socket } = await start();
    socket.send(identify(fake, 1 << 30));
    expect(await socket.closed).toBe(4013);
  });

  it('GIVEN a privileged intent the application may not use THEN the fake closes with 4014', async () => {
    const { fake, socket } = await start({ privileged: { guildMembers: false } });
    socket.send(identify(fake, Intent.Guilds | Intent.GuildMembers));
    expect(await socket.closed).toBe(4014);
    expect(fake.identifies[0]?.refused).toBe(4014);
  });

  it('GIVEN a second IDENTIFY on the same socket THEN the fake closes with 4005', async () => {
    const { fake, socket } = await start();
    socket.send(identify(fake));
    await socket.next();
    socket.send(identify(fake));
    expect(await socket.closed).toBe(4005);
  });

  it('GIVEN a RESUME of an unknown session THEN the fake answers INVALID SESSION (not resumable)', async () => {
    const { fake, socket } = await start();
    socket.send({ op: 6, d: { token: fake.token, session_id: 'made-up', seq: 3 } });
    expect(await socket.next()).toEqual({ op: 9, d: false });
    expect(fake.resumes).toEqual([{ sessionId: 'made-up', seq: 3, accepted: false, replayed: 0 }]);
  });

  it('GIVEN a session that disconnected WHEN it resumes from a sequence THEN only the later events are replayed, then RESUMED', async () => {
    const { fake, socket } = await start();
    const guild = fake.addGuild('Home');
    socket.send(identify(fake, Intent.Guilds | Intent.GuildMessages | Intent.MessageContent));
    const ready = await socket.next();
    await socket.next();
    const alice = fake.addUser('alice');
    const general = fake.addChannel(guild, 'general');
    fake.addMember(guild, alice);
    expect((await socket.next()).t).toBe('CHANNEL_CREATE');
    fake.dropGateway();
    await socket.closed;
    fake.sendMessage({ channel: general, author: alice, content: 'one' });
    fake.sendMessage({ channel: general, author: alice, content: 'two' });

    const again = new RawSocket(fake.gatewayUrl);
    sockets.push(again);
    await again.next();
    again.send({ op: 6, d: { token: fake.token, session_id: (ready.d as { session_id: string }).session_id, seq: 3 } });
    const replayed = [await again.next(), await again.next(), await again.next()];
    expect(replayed.map((p) => [p.s, p.t])).toEqual([
      [4, 'MESSAGE_CREATE'],
      [5, 'MESSAGE_CREATE'],
      [6, 'RESUMED'],
    ]);
    expect(replayed.slice(0, 2).map((p) => (p.d as { content: string }).content)).toEqual(['one', 'two']);
  });
});
