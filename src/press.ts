/**
 * What a button pressed on a card comes to (docs/discord.md "Cards and buttons"). A press is the command
 * it stands for, run by the router as if the presser had typed it (`stop:steve` is `/stop steve`): the same
 * rights, the same reply, nothing held in memory between the card and the press. A button on a `/status`
 * card then shows that card again as the avatar is now; `Goal…` and `New goal…` ask for the goal first.
 */
import { asksForGoal, cardAction, parseActionId, statusActions, updatesCard, type PressedAction } from './cards.ts';
import type { ActionPress, CommandAnswer, CommandInvocation, PressOutcome } from './chat.ts';
import type { CommandHost } from './command-host.ts';
import { cutText, oneLine } from './text.ts';

/** What the router lends a press. */
export interface PressParts {
  host: CommandHost;
  /** Run an invocation as the router runs a command (rights, the store, announcements); its answer. Never throws. */
  answer(inv: CommandInvocation): Promise<CommandAnswer>;
  /** What the presser may see of a failure (a UserError's text, else a reference to the log line). */
  failure(chat: ActionPress, err: unknown): { avatar: string | null; text: string };
}

/** The longest footer a card carries (what the last press did). */
const FOOTER_MAX = 300;

/** The command a press stands for. */
function invocation(press: ActionPress, action: PressedAction): CommandInvocation {
  const base = { ...press, messageId: null };
  switch (action.kind) {
    case 'play':
    case 'stop':
      return { ...base, name: action.kind, options: { avatar: action.avatar } };
    case 'refresh':
    case 'view':
    case 'status':
      return { ...base, name: 'status', options: { avatar: action.avatar } };
    case 'goal':
    case 'newgoal':
      return { ...base, name: 'goal', options: { text: press.text ?? '', avatar: action.avatar } };
  }
}

/**
 * Run a press. Never throws.
 *
 * @example
 * await pressAction({ ...chat, action: 'stop:steve' }, parts) // → { kind: 'update', card: steve's card, stopped, … }
 */
export async function pressAction(press: ActionPress, parts: PressParts): Promise<PressOutcome> {
  const action = parseActionId(press.action);
  if (!action) return { kind: 'refused', avatar: null, text: 'That button is not one of mine. /help lists what I do.' };
  if (asksForGoal(action.kind) && press.text === undefined) {
    // The presser is asked only once it is clear they may set the goal.
    try {
      const a = parts.host.control(press, action.avatar);
      return { kind: 'ask', avatar: a.name, prompt: `New goal for ${a.name}`, placeholder: 'collect 10 oak logs' };
    } catch (err) {
      return { kind: 'refused', ...parts.failure(press, err) };
    }
  }
  const answer = await parts.answer(invocation(press, action));
  if (answer.refused) return { kind: 'refused', avatar: answer.avatar, text: answer.text };
  if (!updatesCard(action.kind)) return { kind: 'answer', answer };
  // The card again, as the avatar is now (a refresh is that alone), with the buttons it had.
  const refresh = action.kind === 'refresh' || action.kind === 'view';
  const fresh = refresh ? answer : await parts.answer(invocation(press, { kind: 'refresh', avatar: action.avatar }));
  if (fresh.refused || !fresh.card || fresh.avatar === null) return { kind: 'answer', answer };
  const actions = statusActions(fresh.avatar, fresh.card.state !== 'stopped', action.kind !== 'view');
  const did = refresh ? '' : action.kind === 'goal' ? answer.text : `${oneLine(press.fromName)} pressed ${cardAction(action.kind, fresh.avatar).label}: ${answer.text}`;
  const card = { ...fresh.card, actions, ...(did ? { footer: cutText(oneLine(did), FOOTER_MAX) } : {}) };
  return { kind: 'update', avatar: fresh.avatar, text: fresh.text, card, note: did };
}
