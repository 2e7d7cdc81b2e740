/**
 * What each avatar did lately, for the dashboard: its latest news lines (what
 * its loop posts: `Done: …`, `New goal (my choice): …`, `Direction #n done: …`,
 * stop reasons; and the replies that tell a change made to it: `New goal from
 * ada: …`, `Playing. Resuming my goal: …`, `Stopped. …`) and one line per turn
 * (the thought stream's lines, as `/verbose` posts them). Kept in memory only,
 * a few dozen lines per avatar, since mindlink started.
 */
import type { PlayedBy } from './engines/engine.ts';
import type { LoopPostKind } from './loop/decide.ts';
import type { TurnSummary } from './loop/goal-loop.ts';
import type { AvatarNews } from './loop/news.ts';
import { summaryLine } from './thought-stream.ts';

/** News lines kept per avatar. */
export const NEWS_KEPT = 12;
/** Turn lines kept per avatar. */
export const TURNS_KEPT = 40;

/** One line with the time it came (epoch ms). */
export interface RecentLine {
  at: number;
  kind: LoopPostKind | 'turn';
  text: string;
}

function push(map: Map<string, RecentLine[]>, avatar: string, line: RecentLine, keep: number): void {
  const lines = map.get(avatar) ?? [];
  lines.push(line);
  if (lines.length > keep) lines.splice(0, lines.length - keep);
  map.set(avatar, lines);
}

/**
 * @example
 * const recent = new RecentActivity();
 * recent.posted('demo', 'done', 'Done: collect 3 oak logs');
 * recent.news('demo'); // → [{ at, kind: 'done', text: 'Done: collect 3 oak logs' }]
 */
export class RecentActivity {
  private readonly newsLines = new Map<string, RecentLine[]>();
  private readonly turnLines = new Map<string, RecentLine[]>();
  /** Who played each avatar's last turn, where its engine says (a hybrid avatar). */
  private readonly played = new Map<string, PlayedBy>();
  private changes = 0;

  /** `news`: the loops' lines and turns, taken in as they come. */
  constructor(
    private readonly now: () => number = Date.now,
    news?: AvatarNews,
  ) {
    news?.on('post', (p) => this.posted(p.avatar, p.kind, p.text));
    news?.on('turnEnded', (avatar, summary) => this.turnEnded(avatar, summary));
  }

  /** Grows with every line taken in (the dashboard looks again when it moved). */
  get version(): number {
    return this.changes;
  }

  /** A line about `avatar`: its loop posted it to its chats, or a reply told a change made to it. */
  posted(avatar: string, kind: LoopPostKind, text: string): void {
    push(this.newsLines, avatar, { at: this.now(), kind, text }, NEWS_KEPT);
    this.changes++;
  }

  /** A turn of `avatar` ended. */
  turnEnded(avatar: string, summary: TurnSummary): void {
    push(this.turnLines, avatar, { at: this.now(), kind: 'turn', text: summaryLine(summary) }, TURNS_KEPT);
    if (summary.playedBy) this.played.set(avatar, summary.playedBy);
    else this.played.delete(avatar);
    this.changes++;
  }

  /** Who played the avatar's last turn since mindlink started, when its engine says (the hybrid engine: the scripted engine or a model). */
  lastPlayedBy(avatar: string): PlayedBy | undefined {
    return this.played.get(avatar);
  }

  /** The latest news lines of an avatar, oldest first. */
  news(avatar: string): readonly RecentLine[] {
    return this.newsLines.get(avatar) ?? [];
  }

  /** The latest turn lines of an avatar, oldest first. */
  turns(avatar: string): readonly RecentLine[] {
    return this.turnLines.get(avatar) ?? [];
  }
}
