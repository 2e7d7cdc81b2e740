/**
 * Fault isolation for one bot: an exception thrown while the bot handles a packet ends that bot's
 * connection instead of the whole process.
 *
 * Where the throw goes without this: minecraft-protocol parses a packet in protodef's
 * `FullPacketParser._transform` and pushes it; the client's `data` listener calls `emitPacket`, which
 * emits the packet by name on the client, where mineflayer's plugins listen (and re-emit bot events,
 * where skills and the pathfinder listen). A listener that throws unwinds through `push`, through the
 * framing transform (which rethrows anything that is not a partial read) and out of the socket's `data`
 * event: an uncaught exception, and every avatar, bridge and the console go down with it.
 *
 * The boundary is the event dispatch of the bot's two emitters, the protocol client and the bot: every
 * packet and every bot event one avatar handles passes through them, synchronously, so a throw there
 * belongs to that avatar alone. Once a bot has faulted, its client dispatches no more packets (its state
 * can no longer be trusted) and the owner ends the connection; `end` and `error` still pass, so the
 * usual reconnect runs. Exceptions from mineflayer's own timers or promises (physics ticks, async
 * handlers) do not pass through these emitters and are not caught here.
 */
import type { EventEmitter } from 'node:events';

/** A listener of one bot threw. */
export interface PacketFault {
  /** The packet being handled (its protocol name), or `event:<name>` for a bot event outside any packet. */
  packet: string;
  error: Error;
}

/** Client events that still pass after a fault: the connection's own life, not the game. */
const CONNECTION_EVENTS = new Set(['end', 'error', 'close', 'state', 'connect']);

type Emit = (event: string | symbol, ...args: unknown[]) => boolean;

/**
 * Guard a bot (mineflayer) and its protocol client (`bot._client`): a listener that throws is reported
 * to `onFault` (once per bot; later throws are reported too but the client stays shut) instead of
 * propagating. Call right after `mineflayer.createBot`, before its plugins are injected.
 *
 * @example
 * const bot = mineflayer.createBot(options);
 * guardBot(bot, bot._client, (fault) => {
 *   log.error({ err: fault.error, packet: fault.packet }, 'bot failed on a packet');
 *   bot.end('packet handler failed');
 * });
 */
export function guardBot(bot: EventEmitter, client: EventEmitter, onFault: (fault: PacketFault) => void): void {
  let faulted = false;
  /** The packet the client is dispatching right now (bot events fired inside it belong to it). */
  let current: string | undefined;

  const fail = (packet: string, err: unknown): void => {
    faulted = true;
    onFault({ packet, error: err instanceof Error ? err : new Error(String(err)) });
  };

  const clientEmit = client.emit as Emit;
  (client as { emit: Emit }).emit = function guardedClientEmit(this: EventEmitter, event, ...args) {
    const name = String(event);
    // An unhandled 'error' must keep its meaning (it throws by design); mineflayer always listens for it.
    if (name === 'error') return clientEmit.call(this, event, ...args);
    if (faulted && !CONNECTION_EVENTS.has(name)) return false;
    const outer = current;
    current = packetName(name, args[1]) ?? outer;
    try {
      return clientEmit.call(this, event, ...args);
    } catch (err) {
      fail(current ?? name, err);
      return true;
    } finally {
      current = outer;
    }
  };

  const botEmit = bot.emit as Emit;
  (bot as { emit: Emit }).emit = function guardedBotEmit(this: EventEmitter, event, ...args) {
    if (event === 'error') return botEmit.call(this, event, ...args);
    // Inside a packet the client's guard reports it, with the packet's name.
    if (current !== undefined) return botEmit.call(this, event, ...args);
    try {
      return botEmit.call(this, event, ...args);
    } catch (err) {
      fail(`event:${String(event)}`, err);
      return true;
    }
  };
}

/** The protocol name of the packet an emit is about (`packet`/`raw` carry it in their metadata). */
function packetName(event: string, meta: unknown): string | undefined {
  if (event === 'packet' || event === 'raw') {
    const n = (meta as { name?: unknown } | undefined)?.name;
    return typeof n === 'string' ? n : undefined;
  }
  if (event.startsWith('raw.')) return event.slice(4);
  if (CONNECTION_EVENTS.has(event)) return undefined;
  return event;
}
