/**
 * Replies for the sender's eyes only (a dashboard sign-in link): never posted
 * to a group. From a group they go to the sender's private chat where the
 * platform lets mindlink address one by the sender's id (Telegram: a user's
 * private chat has the user's id), and the group gets a line saying where the
 * answer went; where it cannot (a Discord channel, read as a message rather
 * than a slash command, whose answer Discord shows to the sender alone), the
 * group gets a line saying how to ask privately, and the answer is not posted.
 */
import type { ChatContext } from './chat.ts';
import type { Poster } from './outbox/poster.ts';
import type { Destination } from './store/schema.ts';

/**
 * The sender's private chat with mindlink, or null where the platform gives no way to address it.
 *
 * @example
 * privateChatOf({ platform: 'telegram', from: 'telegram:42', chatKind: 'group', dest: 'telegram:-100', … }) // → 'telegram:42'
 */
export function privateChatOf(chat: ChatContext): Destination | null {
  if (chat.chatKind !== 'group') return chat.dest;
  const telegram = /^telegram:(\d+)$/.exec(chat.from);
  if (chat.platform === 'telegram' && telegram) return `telegram:${telegram[1]}`;
  return null;
}

/**
 * Post a private answer: in a private chat or the console as a reply; from a group, to the sender's
 * private chat with a note in the group, or only the note when there is no private chat to reach.
 */
export function replyPrivately(poster: Poster, chat: ChatContext, answer: { avatar: string | null; text: string }): void {
  const to = privateChatOf(chat);
  if (to === chat.dest) {
    poster.reply(chat, answer.avatar, answer.text);
    return;
  }
  if (to) {
    poster.to(to, answer.avatar, answer.text);
    poster.reply(chat, null, `${chat.fromName}, I sent you the answer in a private chat. If nothing came, open a chat with me and ask there.`);
    return;
  }
  poster.reply(chat, null, `${chat.fromName}, that answer is for you alone: use the slash command here (its answer is shown only to you), or ask me in a direct message.`);
}
