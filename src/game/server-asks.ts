/**
 * Answers to what a server asks of a player who joins: a resource pack is
 * accepted (a bot draws nothing, so it needs none, and a server that
 * requires one lets it in), and a login plugin's prompt (AuthMe's
 * "/register <password> <password>", "/login <password>") is answered with
 * the avatar's own password for that server.
 */
import type { Bot } from 'mineflayer';
import type { Logger } from '../logger.ts';
import type { PasswordBook } from './passwords.ts';

/** Most answers to a login plugin per connection (a plugin that keeps asking is refusing). */
const MAX_LOGIN_ANSWERS = 3;

const REGISTER = /\/(register|reg)\b/i;
const LOGIN = /\/(login|l)\b/i;

/**
 * Listen on a bot for the server's asks; `server` names the server in the password book.
 *
 * @example
 * answerServerAsks(bot, { server: 'survival', passwords, log });
 */
export function answerServerAsks(bot: Bot, opts: { server: string; passwords: PasswordBook | undefined; log: Logger }): void {
  const { server, passwords, log } = opts;
  bot.on('resourcePack', () => {
    // mineflayer answers itself while the connection is configured; in play it only tells.
    if ((bot._client.state as string) === 'configuration') return;
    bot.acceptResourcePack();
    log.info({ server }, 'the server sent a resource pack: accepted');
  });
  if (!passwords) return;
  let answers = 0;
  bot.on('messagestr', (text: string, position: string) => {
    // Only the server's own lines: a player's chat could otherwise make the avatar type its password.
    if (position !== 'system' || answers >= MAX_LOGIN_ANSWERS) return;
    const register = REGISTER.test(text) && /password/i.test(text);
    const login = !register && LOGIN.test(text) && /password|log ?in/i.test(text);
    if (!register && !login) return;
    answers += 1;
    // The first ask makes the avatar's password for this server; every later one uses it.
    const password = passwords.passwordFor(server);
    log.info({ server, answer: register ? 'register' : 'login' }, 'the server has a login plugin: answering it');
    bot.chat(register ? `/register ${password} ${password}` : `/login ${password}`);
  });
}
