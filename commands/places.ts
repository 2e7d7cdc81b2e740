import { z } from 'zod';
import { dimensionWords } from '../src/command-words.ts';
import type { PlaceView } from '../src/command-host.ts';
import type { Command } from './command.ts';

const options = z.object({ avatar: z.string().optional() });

/** A place's coordinates: `10 64 -3`, with the dimension when it is not the overworld. */
export function placeWhere(p: PlaceView): string {
  return `${p.x} ${p.y} ${p.z}${p.dimension === 'overworld' ? '' : ` in ${dimensionWords(p.dimension)}`}`;
}

/** One place in a list: `base: 10 64 -3, 12 blocks away`, and who remembered it when the avatar did itself. */
export function placeLine(p: PlaceView): string {
  const away = p.distance === null ? '' : p.distance === 0 ? ', right here' : `, ${p.distance} block${p.distance === 1 ? '' : 's'} away`;
  return `${p.name}: ${placeWhere(p)}${away}${p.by === null ? ' (remembered by itself)' : ''}`;
}

/** `/places [avatar]`: the places an avatar remembers on its server, with how far each is from it now (whoever may see its /status). */
export const places: Command<typeof options> = {
  name: 'places',
  description: 'List the places an avatar remembers, with how far each is from it now',
  usage: '[avatar]',
  access: 'known',
  options,
  positional: ['avatar'],
  async run({ host, chat }, { avatar }) {
    const a = host.watch(chat, avatar);
    const list = a.places();
    // Places are kept per server: the server is named where there is more than one.
    const on = host.servers.count() > 1 ? ` on ${a.record.server}` : '';
    if (list.length === 0) return { avatar: a.name, text: `${a.name} remembers no places${on} yet: /place set <name> remembers where it stands.` };
    const head = `${a.name} remembers ${list.length} place${list.length === 1 ? '' : 's'}${on}${a.isPlaying() ? '' : ` (stopped: no distances)`}:`;
    return { avatar: a.name, text: [head, ...list.map((p) => `- ${placeLine(p)}`)].join('\n') };
  },
};
