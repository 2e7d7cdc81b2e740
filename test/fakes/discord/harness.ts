/**
 * Test helpers for the fake Discord with the real discord.js client: a
 * small world (a guild owned by alice with a #general channel), a client
 * that is logged in and ready, and interaction handlers whose failures
 * end the test at once (the fake closes, so every pending wait rejects)
 * instead of leaving it to hang until its timeout.
 *
 * Everything started here is closed by {@link Harness.close} (call it in `afterEach`).
 */
import { once } from 'node:events';
import { Client, Events, GatewayIntentBits, Partials, type Interaction } from 'discord.js';
import { FakeDiscord, type FakeChannel, type FakeDiscordOptions, type FakeGuild, type FakeUser } from '../discord-api.ts';

/** The intents the bridge asks for. */
export const BRIDGE_INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.MessageContent,
  GatewayIntentBits.DirectMessages,
];

export interface SmallWorld {
  fake: FakeDiscord;
  alice: FakeUser;
  guild: FakeGuild;
  general: FakeChannel;
}

export class Harness {
  readonly #fakes: FakeDiscord[] = [];
  readonly #clients: Client[] = [];
  readonly #errors: unknown[] = [];

  /** A fake with alice, her guild "Home" and its #general channel. */
  async world(options: FakeDiscordOptions = {}): Promise<SmallWorld> {
    const fake = await FakeDiscord.start(options);
    this.#fakes.push(fake);
    const alice = fake.addUser('alice');
    const guild = fake.addGuild('Home', { owner: alice });
    const general = fake.addChannel(guild, 'general');
    return { fake, alice, guild, general };
  }

  /** A discord.js client for the fake (not logged in). */
  client(fake: FakeDiscord, intents: number[] = BRIDGE_INTENTS): Client {
    const client = new Client({ intents, partials: [Partials.Channel], rest: { api: fake.apiUrl } });
    this.#clients.push(client);
    return client;
  }

  /** A client logged in and ready. */
  async ready(fake: FakeDiscord, intents: number[] = BRIDGE_INTENTS): Promise<Client<true>> {
    const client = this.client(fake, intents);
    const isReady = once(client, Events.ClientReady);
    await client.login(fake.token);
    await isReady;
    return client as Client<true>;
  }

  /** Runs `handler` for every interaction; a failure is kept and closes the fake. */
  serve(client: Client, fake: FakeDiscord, handler: (i: Interaction) => Promise<unknown>): void {
    client.on(Events.InteractionCreate, (i) => {
      handler(i).catch((error: unknown) => {
        this.#errors.push(error);
        void fake.close();
      });
    });
  }

  /** Destroys every client, closes every fake, and throws the first handler failure. */
  async close(): Promise<void> {
    for (const c of this.#clients.splice(0)) await c.destroy();
    for (const f of this.#fakes.splice(0)) await f.close();
    const [first] = this.#errors.splice(0);
    if (first !== undefined) throw first;
  }
}
