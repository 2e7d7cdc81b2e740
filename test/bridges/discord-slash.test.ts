import { ApplicationCommandOptionType } from 'discord.js';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { optionValues, slashCommands, slashOption } from '../../bridges/discord/slash.ts';
import { commandList } from '../../commands/index.ts';

describe('slash commands from the command schemas', () => {
  it('GIVEN every Discord command THEN each becomes a valid chat-input command with required options first', () => {
    const body = slashCommands(commandList('discord'));
    expect(body.map((c) => c.name)).toEqual(commandList('discord').map((c) => c.name));
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
    expect(byName.avatar?.options?.[0]).toMatchObject({ name: 'action', required: true, choices: [{ name: 'create', value: 'create' }, { name: 'move', value: 'move' }] });
    expect(byName.share?.options?.[0]).toMatchObject({ name: 'role', type: ApplicationCommandOptionType.Role, required: true });
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
