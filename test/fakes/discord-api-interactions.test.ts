import { Events, MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { option, Permission, type InteractionOption } from './discord-api.ts';
import { Harness } from './discord/harness.ts';

const h = new Harness();
afterEach(() => h.close());

describe('fake Discord interactions with the real discord.js client', () => {
  it('GIVEN global and guild commands WHEN the bot registers them THEN the fake stores both scopes', async () => {
    const { fake, guild } = await h.world();
    const c = await h.ready(fake);
    await c.application.commands.set([
      { name: 'goal', description: 'Set a goal', options: [{ name: 'text', description: 'the goal', type: 3, required: true }] },
      { name: 'share', description: 'Share avatars', options: [{ name: 'role', description: 'who', type: 8, required: true }] },
    ]);
    await c.application.commands.set([{ name: 'dev', description: 'guild-only' }], guild.id);

    expect((await fake.waitForCommands()).map((x) => x.name)).toEqual(['goal', 'share']);
    expect((await fake.waitForCommands(guild)).map((x) => x.name)).toEqual(['dev']);
    expect(fake.commands.overwrites).toEqual([
      { scope: 'global', names: ['goal', 'share'] },
      { scope: guild.id, names: ['dev'] },
    ]);
  });

  it('GIVEN an invalid command WHEN the bot registers it THEN the whole overwrite is refused with 400', async () => {
    const { fake } = await h.world();
    const c = await h.ready(fake);
    await expect(c.application.commands.set([{ name: 'Bad Name', description: 'x' }])).rejects.toMatchObject({ status: 400, code: 50035 });
    await expect(
      c.application.commands.set([
        {
          name: 'play',
          description: 'x',
          options: [
            { name: 'a', description: 'optional', type: 3 },
            { name: 'b', description: 'required after optional', type: 3, required: true },
          ],
        },
      ]),
    ).rejects.toMatchObject({ status: 400 });
    await expect(c.application.commands.set([{ name: 'long', description: 'd'.repeat(101) }])).rejects.toMatchObject({ status: 400 });
    expect(fake.commands.overwrites).toHaveLength(0);
  });

  it('GIVEN registered commands WHEN people run them THEN interactions carry options, roles, permissions and resolved roles, and replies are recorded', async () => {
    const { fake, alice, guild, general } = await h.world();
    const pilots = fake.addRole(guild, 'pilots');
    const bob = fake.addUser('bob');
    fake.addMember(guild, bob, { roles: [pilots] });
    const c = await h.ready(fake);
    await c.application.commands.set([
      { name: 'goal', description: 'Set a goal', options: [{ name: 'text', description: 'the goal', type: 3, required: true }] },
      { name: 'share', description: 'Share avatars', options: [{ name: 'role', description: 'who', type: 8, required: true }] },
    ]);
    const seen: ChatInputCommandInteraction[] = [];
    h.serve(c, fake, async (i) => {
      if (!i.isChatInputCommand()) return;
      seen.push(i);
      if (i.commandName === 'goal') await i.reply(`goal set: ${i.options.getString('text', true)}`);
      else await i.reply({ content: `shared with ${i.options.getRole('role', true).name}`, flags: MessageFlags.Ephemeral });
    });

    const goal = fake.slash({ user: bob, channel: general, name: 'goal', options: [option.string('text', 'dig')] });
    const share = fake.slash({ user: alice, channel: general, name: 'share', options: [option.role('role', pilots)] });

    expect(await goal.reply()).toMatchObject({ content: 'goal set: dig', ephemeral: false, deferred: false });
    expect(await share.reply()).toMatchObject({ content: 'shared with pilots', ephemeral: true });
    const [goalI, shareI] = seen;
    expect(goalI?.inCachedGuild() && goalI.member.roles.cache.has(pilots.id)).toBe(true);
    expect(goalI?.memberPermissions?.has(Permission.ManageGuild)).toBe(false);
    expect(shareI?.memberPermissions?.has(Permission.ManageGuild)).toBe(true);
    expect(fake.requests.find((r) => r.path.startsWith(`/interactions/${goal.id}/`))).toMatchObject({ method: 'POST', status: 204, authorized: false });
    expect(fake.posts.map((p) => [p.via, p.ephemeral])).toEqual([
      ['interaction', false],
      ['interaction', true],
    ]);
  });

  it('GIVEN a command in a DM WHEN a person runs it THEN the interaction has a user and no guild', async () => {
    const { fake, alice } = await h.world();
    const c = await h.ready(fake);
    await c.application.commands.set([{ name: 'status', description: 'Show status' }]);
    h.serve(c, fake, async (i) => {
      if (i.isChatInputCommand()) await i.reply(`${i.user.username} ${i.inGuild() ? 'in a guild' : 'in a DM'}`);
    });
    const status = fake.slash({ user: alice, channel: fake.dmChannel(alice), name: 'status' });
    expect((await status.reply()).content).toBe('alice in a DM');
  });

  it('GIVEN a slow command WHEN the bot defers, edits and follows up THEN the fake shows the edited reply and the follow-up', async () => {
    const { fake, alice, general } = await h.world();
    const c = await h.ready(fake);
    await c.application.commands.set([{ name: 'status', description: 'Show status' }]);
    h.serve(c, fake, async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.deferReply({ flags: MessageFlags.Ephemeral });
      await i.editReply('all quiet');
      await i.followUp({ content: 'and one more thing', flags: MessageFlags.Ephemeral });
    });

    const status = fake.slash({ user: alice, channel: general, name: 'status' });
    expect((await status.callback()).type).toBe(5);
    expect(await status.reply()).toMatchObject({ content: 'all quiet', ephemeral: true, deferred: true, via: 'edit' });
    expect(await status.followUp()).toMatchObject({ content: 'and one more thing', ephemeral: true, via: 'followup' });
  });

  it('GIVEN a public deferral WHEN the bot deletes it and answers with a private follow-up THEN the user sees only the follow-up', async () => {
    const { fake, alice, general } = await h.world();
    const c = await h.ready(fake);
    await c.application.commands.set([{ name: 'goal', description: 'Set a goal' }]);
    h.serve(c, fake, async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.deferReply();
      await i.deleteReply();
      await i.followUp({ content: 'you may not', flags: MessageFlags.Ephemeral });
    });

    const goal = fake.slash({ user: alice, channel: general, name: 'goal' });
    expect(await goal.reply()).toMatchObject({ content: 'you may not', ephemeral: true, deferred: true, via: 'followup' });
    const thinking = fake.posts.find((p) => p.interactionId === goal.id && p.via === 'interaction');
    expect(fake.deleted.map((d) => d.messageId)).toEqual([thinking?.message.id]);
  });

  it('GIVEN a reply with withResponse WHEN the bot answers THEN the fake returns the created message', async () => {
    const { fake, alice, general } = await h.world();
    const c = await h.ready(fake);
    await c.application.commands.set([{ name: 'play', description: 'Create an avatar' }]);
    let answered: (id: string | undefined) => void = () => undefined;
    const messageId = new Promise<string | undefined>((resolve) => (answered = resolve));
    h.serve(c, fake, async (i) => {
      if (!i.isChatInputCommand()) return;
      const response = await i.reply({ content: 'created ada', withResponse: true });
      answered(response.resource?.message?.id);
    });
    fake.slash({ user: alice, channel: general, name: 'play' });
    expect(await messageId).toBe(fake.posts[0]?.message.id);
  });

  it('GIVEN a command with autocomplete WHEN a person types THEN the bot answers with choices', async () => {
    const { fake, alice, general } = await h.world();
    const c = await h.ready(fake);
    await c.application.commands.set([
      { name: 'play', description: 'Control an avatar', options: [{ name: 'avatar', description: 'which', type: 3, autocomplete: true }] },
    ]);
    h.serve(c, fake, async (i) => {
      if (!i.isAutocomplete()) return;
      const typed = i.options.getFocused();
      await i.respond(['ada', 'bob', 'adam'].filter((n) => n.startsWith(typed)).map((n) => ({ name: n, value: n })));
    });

    const typing = fake.autocomplete({ user: alice, channel: general, name: 'play', options: [option.focused('avatar', 'ad')] });
    expect(await typing.choices()).toEqual([
      { name: 'ada', value: 'ada' },
      { name: 'adam', value: 'adam' },
    ]);
  });

  it('GIVEN an interaction WHEN its callback is posted by hand THEN the first gets 204 with no content-type, a second 400, and a wrong token 404', async () => {
    const { fake, alice, general } = await h.world();
    const c = await h.ready(fake);
    await c.application.commands.set([{ name: 'status', description: 'Show status' }]);
    const status = fake.slash({ user: alice, channel: general, name: 'status' });
    const token = String(status.payload.token);
    const post = (t: string) =>
      fetch(`${fake.apiUrl}/v10/interactions/${status.id}/${t}/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 4, data: { content: 'hi' } }),
      });

    const first = await post(token);
    expect(first.status).toBe(204);
    expect(first.headers.get('content-type')).toBeNull();
    const second = await post(token);
    expect(second.status).toBe(400);
    expect(await second.json()).toMatchObject({ code: 40060 });
    expect((await post('wrong')).status).toBe(404);
  });

  it('GIVEN a callback deadline WHEN the bot answers after it THEN Discord says Unknown interaction', async () => {
    const { fake, alice, general } = await h.world({ interactionDeadlineMs: 0 });
    const c = await h.ready(fake);
    await c.application.commands.set([{ name: 'status', description: 'Show status' }]);
    const failure = new Promise<unknown>((resolve) => {
      c.on(Events.InteractionCreate, (i) => {
        if (i.isChatInputCommand()) i.reply('too late').then(() => resolve('accepted'), resolve);
      });
    });
    const status = fake.slash({ user: alice, channel: general, name: 'status' });
    expect(await failure).toMatchObject({ status: 404, code: 10062 });
    expect(status.state.callback).toBeNull();
  });

  it('GIVEN a command that is not registered or options no user could send WHEN a test injects them THEN the fake refuses, as Discord would never send them', async () => {
    const { fake, alice, general } = await h.world();
    const c = await h.ready(fake);
    await c.application.commands.set([
      {
        name: 'verbose',
        description: 'Thought stream',
        options: [
          { name: 'mode', description: 'on or off', type: 3, required: true, choices: [{ name: 'on', value: 'on' }, { name: 'off', value: 'off' }] },
          { name: 'avatar', description: 'which', type: 3, autocomplete: true },
        ],
      },
    ]);
    const run = (options: InteractionOption[], name = 'verbose') => () => fake.slash({ user: alice, channel: general, name, options });

    expect(run([], 'nope')).toThrow(/no command \/nope/);
    expect(run([])).toThrow(/required option "mode"/);
    expect(run([option.string('mode', 'loud')])).toThrow(/not a choice/);
    expect(run([option.integer('mode', 1)])).toThrow(/has type 3, not 4/);
    expect(run([option.string('mode', 'on'), option.string('colour', 'red')])).toThrow(/no option "colour"/);
    expect(run([option.focused('avatar', 'st')])).toThrow(/only an autocomplete/);
    expect(() => fake.autocomplete({ user: alice, channel: general, name: 'verbose', options: [option.focused('mode', 'o')] })).toThrow(/has no autocomplete/);
    expect(run([option.string('mode', 'on'), option.string('avatar', 'steve')])).not.toThrow();
  });

  it('GIVEN a message with buttons WHEN people press them THEN discord.js sees each press; an update edits the message, a modal is shown and its submit updates it too', async () => {
    const { fake, alice, guild, general } = await h.world();
    const bob = fake.addUser('bob');
    fake.addMember(guild, bob);
    const c = await h.ready(fake);
    h.serve(c, fake, async (i) => {
      if (i.isButton() && i.customId === 'ask') await i.showModal({ custom_id: 'asked', title: 'Your goal', components: [{ type: 18, label: 'Goal', component: { type: 4, custom_id: 'text', style: 2, required: true } }] });
      else if (i.isButton()) await i.update({ content: `pressed ${i.customId} by ${i.user.username}`, components: [] });
      else if (i.isModalSubmit() && i.isFromMessage()) await i.update({ content: `goal: ${i.fields.getTextInputValue('text')}` });
    });
    const sent = await c.rest.post(`/channels/${general.id}/messages`, {
      body: { content: 'card', components: [{ type: 1, components: [{ type: 2, style: 4, label: 'Stop', custom_id: 'stop' }, { type: 2, style: 2, label: 'Ask', custom_id: 'ask' }] }] },
    });
    const card = fake.message((sent as { id: string }).id);
    if (!card) throw new Error('the card was not posted');
    expect(() => fake.press({ user: bob, message: card, customId: 'play' })).toThrow(/shows no button "play"/);
    const ask = fake.press({ user: bob, message: card, customId: 'ask' });
    expect(await ask.modal()).toMatchObject({ custom_id: 'asked', title: 'Your goal' });
    expect(() => fake.submitModal({ user: alice, from: ask, values: { text: 'dig' } })).toThrow(/the person who opened it/);
    expect(() => fake.submitModal({ user: bob, from: ask, values: { text: '' } })).toThrow(/must be filled/);
    expect((await fake.submitModal({ user: bob, from: ask, values: { text: 'dig' } }).updated()).content).toBe('goal: dig');
    const stop = await fake.press({ user: bob, message: card, customId: 'stop' }).updated();
    expect(stop).toMatchObject({ messageId: card.id, via: 'update', content: 'pressed stop by bob' });
    expect(fake.message(card.id)?.components).toEqual([]);
  });

  it('GIVEN a command only for those who manage the server THEN a member without Manage Server cannot run it there, the owner can, and in a DM anyone can', async () => {
    const { fake, alice, guild, general } = await h.world();
    const bob = fake.addUser('bob');
    fake.addMember(guild, bob);
    const c = await h.ready(fake);
    await c.application.commands.set([{ name: 'servers', description: 'Servers', defaultMemberPermissions: Permission.ManageGuild }]);
    h.serve(c, fake, async (i) => {
      if (i.isChatInputCommand()) await i.reply('ok');
    });
    expect(() => fake.slash({ user: bob, channel: general, name: 'servers' })).toThrow(/hidden from bob/);
    expect((await fake.slash({ user: alice, channel: general, name: 'servers' }).reply()).content).toBe('ok');
    expect((await fake.slash({ user: bob, channel: fake.dmChannel(bob), name: 'servers' }).reply()).content).toBe('ok');
  });
});
