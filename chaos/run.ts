/**
 * Runs the chaos scenarios and judges their figures against the targets.
 * Shared by `npm run chaos` (chaos/index.ts) and the small round in `npm test`.
 */
import { badInput } from './bad-input.ts';
import { chatFaults } from './chat-faults.ts';
import { gameFaults } from './game-faults.ts';
import { killRounds } from './kill-rounds.ts';
import { checkSecrets } from './secrets.ts';

/** Which scenarios, how big, which seed. */
export interface ChaosOptions {
  only?: string[];
  seed: number;
  killRounds: number;
  inputs: number;
  /** How long chat faults are injected (ms). */
  chatFaultMs: number;
  /** How long the game stays down in each game fault (ms). */
  gameDownMs: number;
  /** The kill rounds with the store in a real PostgreSQL (`DATABASE_URL`) instead of the files. */
  db?: boolean;
  log?: (line: string) => void;
}

/** The full run of `npm run chaos`. */
export const FULL = { seed: 1, killRounds: 50, inputs: 1000, chatFaultMs: 60_000, gameDownMs: 15_000 } satisfies ChaosOptions;
/** The small round of `npm test`. */
export const SMALL = { seed: 1, killRounds: 5, inputs: 100, chatFaultMs: 8_000, gameDownMs: 5_000 } satisfies ChaosOptions;

/** One row of the table. */
export interface Row {
  scenario: string;
  figure: string;
  value: number;
  /** The most the promise allows (null: informational). */
  max: number | null;
}

/** What a run printed and which rows missed their target. */
export interface ChaosResult {
  rows: Row[];
  failed: Row[];
  table: string;
}

/** Run the chosen scenarios in order and build the table. */
export async function runChaos(opts: ChaosOptions): Promise<ChaosResult> {
  const want = (name: string): boolean => !opts.only || opts.only.includes(name);
  const rows: Row[] = [];
  const log = opts.log ?? (() => undefined);
  if (want('kill')) {
    log(`kill -9: ${opts.killRounds} rounds${opts.db ? ', the store in PostgreSQL' : ''}`);
    const f = await killRounds({ rounds: opts.killRounds, seed: opts.seed, db: opts.db === true, log });
    rows.push(
      { scenario: `kill -9 ×${f.rounds}${opts.db ? ' (PostgreSQL)' : ''}`, figure: 'stores that failed to load', value: f.unloadable, max: 0 },
      { scenario: '', figure: `acknowledged goals lost (of ${f.goalsAcked})`, value: f.goalsLost, max: 0 },
      { scenario: '', figure: `acknowledged directions lost (of ${f.directionsAcked})`, value: f.directionsLost, max: 0 },
      { scenario: '', figure: 'directions stored twice', value: f.directionsDoubled, max: 0 },
      { scenario: '', figure: 'posts delivered twice', value: f.postsDoubled, max: 0 },
      { scenario: '', figure: 're-sent once: accepted in the last instant before a kill', value: f.postsResentAfterKill, max: null },
      { scenario: '', figure: 'posts never delivered (the change stored, its reply lost)', value: f.postsNeverDelivered, max: 0 },
      { scenario: '', figure: 'messages lost whole (received, neither stored nor answered)', value: f.messagesLost, max: 0 },
      { scenario: '', figure: 'questions whose answering turn a kill cut short', value: f.questionsUnanswered, max: null },
      { scenario: '', figure: 'world processes left running after kill -9', value: f.orphans, max: 0 },
    );
  }
  if (want('input')) {
    log(`bad input: ${opts.inputs} generated messages and commands`);
    const f = await badInput({ count: opts.inputs, seed: opts.seed, log });
    for (const e of f.examples) log(`  ${e}`);
    rows.push(
      { scenario: `bad input ×${f.inputs}`, figure: 'crashes', value: f.crashes, max: 0 },
      { scenario: '', figure: 'inputs without a reply', value: f.missingReplies, max: 0 },
      { scenario: '', figure: 'extra replies', value: f.extraReplies, max: 0 },
      { scenario: '', figure: 'replies to strangers naming an avatar or a coordinate', value: f.leaks, max: 0 },
      { scenario: '', figure: 'replies that ping', value: f.pings, max: 0 },
      { scenario: '', figure: 'raw control characters in chat or on the console', value: f.rawControl, max: 0 },
      { scenario: '', figure: 'store files that failed to load after', value: f.corruptStores, max: 0 },
    );
  }
  if (want('chat')) {
    log(`chat faults: ${opts.chatFaultMs} ms of 429 / 5xx / dropped connections`);
    const f = await chatFaults({ faultMs: opts.chatFaultMs, seed: opts.seed, log });
    rows.push(
      { scenario: `chat faults ${Math.round(opts.chatFaultMs / 1000)} s`, figure: `posts lost (of ${f.messages})`, value: f.lost, max: 0 },
      { scenario: '', figure: 'posts doubled', value: f.doubled, max: 0 },
      { scenario: '', figure: '429s injected (each with Retry-After)', value: f.injected429, max: null },
      { scenario: '', figure: 'sends before a Retry-After had passed', value: f.retryAfterIgnored, max: 0 },
      { scenario: '', figure: "429s for going over Telegram's limits", value: f.pacing429, max: 0 },
    );
  }
  if (want('game')) {
    // Once with the avatars in mindlink's own process, once on two avatar hosts.
    for (const hosts of [1, 2]) {
      const tag = hosts === 1 ? 'game faults' : 'game faults, AVATAR_HOSTS=2';
      log(`${tag}: the world killed, then refusing connections, mid-goal`);
      const f = await gameFaults({ seed: opts.seed, downMs: opts.gameDownMs, hosts, log });
      rows.push(
        { scenario: tag, figure: 'goals not finished after the faults (of 1)', value: 1 - f.goalFinished, max: 0 },
        { scenario: '', figure: 'reconnects', value: f.reconnects, max: null },
        { scenario: '', figure: 'engine turns while the game was down', value: f.turnsWhileDown, max: 0 },
        { scenario: '', figure: "goals not finished after mindlink's own world was killed (of 1)", value: 1 - f.embeddedGoalFinished, max: 0 },
      );
    }
  }
  if (want('secrets')) {
    const f = checkSecrets();
    for (const e of f.examples) log(`  ${e}`);
    rows.push(
      { scenario: 'secrets', figure: `${f.secrets} secrets found in output, files or posts`, value: f.leaks, max: 0 },
      { scenario: '', figure: `data files or folders others may read (of ${f.filesChecked} files and ${f.accountFiles} account files)`, value: f.openFiles, max: 0 },
    );
  }
  const failed = rows.filter((r) => r.max !== null && r.value > r.max);
  return { rows, failed, table: renderTable(rows) };
}

/** A Markdown table (it is pasted into docs/guarantees.md as is). */
export function renderTable(rows: Row[]): string {
  const lines = ['| scenario | figure | value | target |', '| --- | --- | ---: | ---: |'];
  for (const r of rows) {
    const target = r.max === null ? '—' : `≤ ${r.max}`;
    const mark = r.max !== null && r.value > r.max ? ' ✗' : '';
    lines.push(`| ${r.scenario} | ${r.figure} | ${r.value}${mark} | ${target} |`);
  }
  return lines.join('\n');
}
