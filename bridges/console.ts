/**
 * The console bridge: stdin lines in, chat lines out (README "Quickstart").
 *
 * Each stdin line is a message from `console:local`, or a command when it
 * starts with `/`. Lines typed before start-up finishes are queued. stdout
 * carries only chat: every line starts with `[<avatar>] ` or `[mindlink] `.
 * EOF on stdin does not stop mindlink.
 */
import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { Logger } from 'pino';
import { cleanText } from '../src/sanitize.ts';
import type { Post } from '../src/store/schema.ts';
import type { Bridge, BridgeHost, ChatContext, DeliveryOutcome } from '../src/chat.ts';

const CHAT: Omit<ChatContext, 'messageId'> = {
  platform: 'console',
  from: 'console:local',
  fromName: 'console',
  dest: 'console',
  chatKind: 'console',
};

/**
 * @example
 * const bridge = new ConsoleBridge(process.stdin, process.stdout, log); // starts queuing lines now
 * await core.addBridge(bridge);
 * bridge.ready('demo is joining the embedded world');
 */
export class ConsoleBridge implements Bridge {
  readonly platform = 'console' as const;
  readonly maxMessageLength = 100_000;
  private readonly rl: Interface;
  private readonly queue: string[] = [];
  private host: BridgeHost | undefined;
  private draining = false;
  private seq = 0;

  constructor(
    input: Readable,
    private readonly output: Writable,
    private readonly log: Logger,
  ) {
    this.rl = createInterface({ input, terminal: false, crlfDelay: Infinity });
    this.rl.on('line', (line) => {
      this.queue.push(line);
      void this.drain();
    });
    this.rl.on('close', () => this.log.debug('console input closed; mindlink keeps running'));
  }

  async start(host: BridgeHost): Promise<void> {
    this.host = host;
    void this.drain();
  }

  async stop(): Promise<void> {
    this.host = undefined;
    this.rl.close();
  }

  /** Print the one `[mindlink] ready …` line that says start-up is complete. */
  ready(detail: string): void {
    this.write(`[mindlink] ready — ${detail}`);
  }

  async deliver(post: Post, parts: string[]): Promise<DeliveryOutcome> {
    const prefix = post.avatar ? `[${post.avatar}] ` : '[mindlink] ';
    // Everything was cleaned where it entered; cleaning again here keeps the terminal safe whatever a post holds.
    const lines = cleanText(parts.join('\n')).split('\n');
    this.write(lines.map((l) => prefix + l).join('\n'));
    return { ok: true, messageIds: [post.id] };
  }

  private write(text: string): void {
    this.output.write(`${text}\n`);
  }

  /** Handle queued lines one at a time, in order. */
  private async drain(): Promise<void> {
    if (this.draining || !this.host) return;
    this.draining = true;
    try {
      while (this.host && this.queue.length > 0) {
        const line = (this.queue.shift() ?? '').trim();
        if (!line) continue;
        const chat = { ...CHAT, messageId: `c${++this.seq}` };
        const m = /^\/([A-Za-z]+)(?:\s+([\s\S]*))?$/.exec(line);
        if (m?.[1]) await this.host.runCommand({ ...chat, name: m[1], argsText: m[2] ?? '' });
        else await this.host.handleMessage({ ...chat, text: line });
      }
    } finally {
      this.draining = false;
    }
  }
}
