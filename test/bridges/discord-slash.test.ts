import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { commandNameOf, optionValues, slashCommands, slashOption } from '../../bridges/discord/slash.ts';
import { commandList, menuEntries } from '../../commands/index.ts';

describe('slash commands from the command schemas', () => {
  it('GIVEN every Discord command THEN each becomes a valid chat-input command with required options first', () => {
    const body = slashCommands(commandList('discord'));
    expect(body.map((c) => c.name)).toEqual(menuEntries(commandList('discord')).map((c) => c.name));
    for (const c of body) {
      expect(c.description.length).toBeGreaterThan(0);
      expect(c.description.length).toBeLessThanOrEqual(100);
      const required = (c.options ?? []).map((o) => o.required === true);
      expect(required).toEqual([...required].sort((a, b) => Number(b) - Number(a)));
    }
  });

  it('GIVEN /goal, /link, /avatar and /share THEN strings, avatar autocomplete, enum choices and the role option come out', () => {
    const byName = Object.fromEntries(slashCommands(commandList('discord')).map((c) => [c.name, c]));
    expect(byName.goal?.options).toEqual([
      expect.objectContaining({ name: 'text', type: ApplicationCommandOptionType.String, required: true, min_length: 1 }),
      expect.objectContaining({ name: 'avatar', type: ApplicationCommandOptionType.String, required: false, autocomplete: true }),
    ]);
    expect(byName.link?.options?.[1]).toMatchObject({ name: 'mode', choices: [{ name: 'control', value: 'control' }, { name: 'watch', value: 'watch' }], required: false });
    // The /avatar group: one slash command with a sub-command each.
    expect(byName.avatar).toMatchObject({ description: 'Create, remove, rename or move an avatar' });
    expect(byName.avatar?.options?.map((o) => [o.name, o.type])).toEqual([
      ['create', ApplicationCommandOptionType.Subcommand],
      ['remove', ApplicationCommandOptionType.Subcommand],
      ['rename', ApplicationCommandOptionType.Subcommand],
      ['move', ApplicationCommandOptionType.Subcommand],
    ]);
    // The /server group likewise.
    expect(byName.server?.options?.map((o) => o.name)).toEqual(['add', 'remove', 'test']);
    expect(byName.avatar?.options?.[0]).toMatchObject({ options: [expect.objectContaining({ name: 'name', required: true }), expect.objectContaining({ name: 'server' }), expect.objectContaining({ name: 'engine' })] });
    const sub = [{ name: 'rename', type: ApplicationCommandOptionType.Subcommand, options: [{ name: 'name', type: ApplicationCommandOptionType.String, value: ' bob ' }, { name: 'to', type: ApplicationCommandOptionType.String, value: 'robin' }] }];
    expect(commandNameOf('avatar', sub)).toBe('avatar rename');
    expect(optionValues(sub)).toEqual({ name: 'bob', to: 'robin' });
    expect(byName.share?.options?.[0]).toMatchObject({ name: 'role', type: ApplicationCommandOptionType.Role, required: true });
  });

  it('GIVEN commands for admins or for those who manage the server THEN Discord shows them in a server only with Manage Server; a mixed group stays for all', () => {
    const perms = Object.fromEntries(slashCommands(commandList('discord', { llm: true })).map((c) => [c.name, c.default_member_permissions ?? null]));
    const manage = String(1 << 5);
    // mindlink's admin commands, and /share and /unshare (they need Manage Server themselves).
    expect({ servers: perms.servers, server: perms.server, share: perms.share, unshare: perms.unshare }).toEqual({ servers: manage, server: manage, share: manage, unshare: manage });
    // /avatar mixes admin commands (create, move) with the owner's (remove, rename): every member sees it.
    expect(perms.avatar).toBeNull();
    for (const open of ['play', 'stop', 'status', 'goal', 'help', 'pair', 'web', 'owner']) expect(perms[open]).toBeNull();
  });

  it('GIVEN numbers, booleans and an unsupported type THEN integers and booleans map and the rest is refused', () => {
    expect(slashOption('x', 'count', z.number().int().optional())).toMatchObject({ type: ApplicationCommandOptionType.Integer, required: false });
    expect(slashOption('x', 'ratio', z.number())).toMatchObject({ type: ApplicationCommandOptionType.Number, required: true });
    expect(slashOption('x', 'on', z.boolean().default(true))).toMatchObject({ type: ApplicationCommandOptionType.Boolean, required: false });
    expect(slashOption('x', 'id', z.string().regex(/^\d+$/).transform(Number))).toMatchObject({ type: ApplicationCommandOptionType.String, required: true });
    expect(() => slashOption('x', 'when', z.date())).toThrow(/cannot express/);
    expect(() => slashOption('x', 'Bad Name', z.string())).toThrow(/not a valid/);
  });

  it('GIVEN interaction options THEN they become the schema shape, strings trimmed', () => {
    expect(
      optionValues([
        { name: 'text', type: ApplicationCommandOptionType.String, value: '  get logs ' },
        { name: 'role', type: ApplicationCommandOptionType.Role, value: '777' },
        { name: 'count', type: ApplicationCommandOptionType.Integer, value: 3 },
      ]),
    ).toEqual({ text: 'get logs', role: '777', count: 3 });
  });
});
