/**
 * What mindlink says, into the outbox: a reply to the chat a message came
 * from, or a post about an avatar to every chat linked to it (each line the
 * loops announce on their {@link AvatarNews} is one). Text is
 * scrubbed of secrets here; platforms whose bridge is not configured get
 * nothing queued (it would never be delivered).
 */
import { postCard } from '../cards.ts';
import type { Card, ChatContext, Platform } from '../chat.ts';
import type { Config } from '../config.ts';
import type { DonePing, LoopPostKind } from '../loop/decide.ts';
import type { AvatarNews } from '../loop/news.ts';
import { pingPlace } from '../people/ping-place.ts';
import { scrubSecrets } from '../logger.ts';
import type { Destination } from '../store/schema.ts';
import type { Store } from '../store/store.ts';
import { platformOf, type Outbox } from './outbox.ts';

/**
 * @example
 * poster.reply(chat, 'steve', 'Noted as direction #3.');
 * poster.about('steve', 'done', 'Done: collect 3 oak logs', { person: setterId, setIn: 'telegram:42' }); // pings the setter there only
 */
export class Poster {
  /** `news`: every line a loop announces is posted about its avatar. */
  constructor(
    private readonly store: Store,
    private readonly outbox: Outbox,
    private readonly config: Config,
    news?: AvatarNews,
  ) {
    news?.on('post', (p) => this.about(p.avatar, p.kind, p.text, p.ping));
  }

  /** Whether the platform's bridge is configured (posts to it are queued). */
  enabled(platform: Platform): boolean {
    if (platform === 'console') return this.config.CONSOLE;
    if (platform === 'telegram') return this.config.TELEGRAM_TOKEN !== undefined;
    if (platform === 'web') return this.config.WEB;
    return this.config.DISCORD_TOKEN !== undefined;
  }

  /**
   * Post a reply into the chat a message or command came from (threaded to it), as a card where it has one (`/status`).
   * It answers the message's update, where the platform may deliver that again (`src/handled-updates.ts`).
   */
  reply(chat: ChatContext, avatar: string | null, text: string, card?: Card): void {
    if (!this.enabled(chat.platform)) return;
    this.outbox.post({
      dest: chat.dest,
      avatar,
      text: scrubSecrets(text),
      replyTo: chat.messageId,
      ping: null,
      kind: 'reply',
      ...(card ? { card: scrubCard(card) } : {}),
      ...(chat.updateKey !== undefined ? { answers: chat.updateKey } : {}),
    });
  }

  /** Post one line to one chat (a scheduled run's acknowledgement, a digest), pinging nobody. */
  to(dest: Destination, avatar: string | null, text: string): void {
    if (!this.enabled(platformOf(dest))) return;
    this.outbox.post({ dest, avatar, text: scrubSecrets(text), replyTo: null, ping: null, kind: 'info' });
  }

  /**
   * Post about an avatar to every chat linked to it. `ping` (an owner goal's Done): its setter is pinged once, in
   * one of those chats (see `src/people/ping-place.ts`); the others get the same line pinging nobody. A `Done:` carries
   * its buttons (`postCard` of `src/cards.ts`).
   */
  about(avatar: string, kind: LoopPostKind, text: string, ping: DonePing | null): void {
    const s = this.store.state.data;
    const person = ping ? s.persons.find((p) => p.id === ping.person) : undefined;
    const place = ping ? pingPlace(s, avatar, ping.person, ping.setIn) : null;
    for (const link of s.links.filter((l) => l.avatar === avatar)) {
      const platform = platformOf(link.dest);
      if (!this.enabled(platform)) continue;
      const who = link.dest === place ? (person?.identities.find((i) => i.startsWith(`${platform}:`)) ?? null) : null;
      const card = postCard(avatar, kind, link.mode);
      this.outbox.post({ dest: link.dest, avatar, text: scrubSecrets(text), ping: who, replyTo: null, kind, ...(card ? { card } : {}) });
    }
  }
}

/** A card with every secret removed from what it shows, as a post's text is. */
function scrubCard(card: Card): Card {
  return {
    ...card,
    ...(card.summary !== undefined ? { summary: scrubSecrets(card.summary) } : {}),
    ...(card.footer !== undefined ? { footer: scrubSecrets(card.footer) } : {}),
    fields: card.fields.map((f) => ({ ...f, value: scrubSecrets(f.value) })),
  };
}
