/**
 * One avatar's TASK.md and lab log on disk: reads, atomic serialised writes of
 * mindlink's sections, the avatar's own rewrites and lab-log entries. What the
 * file says is `task-md.ts`'s job (pure text functions).
 */
import { appendFile, mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KeyedQueue } from '../keyed-queue.ts';
import { cutOnWord, oneLine } from '../text.ts';
import { writeAtomic } from '../store/atomic-write.ts';
import { initialTask, MINDLINK_SECTIONS, ownPart, regions, renderTask, withSections, type MindlinkParts } from './task-md.ts';

/** Most characters of one lesson in a prompt. */
const LESSON_MAX = 100;

/** How much of the end of the lab log is read for its last lessons. */
const LAB_TAIL_BYTES = 32 * 1024;

/** The last `bytes` of a file as text (all of it when shorter), and whether it was cut; empty when there is no file. */
async function readTail(path: string, bytes: number): Promise<{ text: string; cut: boolean }> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { text: '', cut: false };
    throw err;
  }
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - bytes);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    // A cut UTF-8 character at the start becomes U+FFFD; it is in the entry that is dropped.
    return { text: buffer.toString('utf8'), cut: start > 0 };
  } finally {
    await handle.close();
  }
}

/** One queue per file path, so writes to one file never overlap (even from two TaskFile objects). */
const files = new KeyedQueue();

async function readIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * One avatar's TASK.md and lab log on disk.
 *
 * @example
 * const task = new TaskFile(join(dataDir, 'avatars', 'steve'), 'steve');
 * const md = await task.read();
 * await task.update({ open: book.open, done: book.done, finished });
 * await task.appendLab('Trees are east of spawn; bring an axe.', new Date());
 */
export class TaskFile {
  /** `<dir>/TASK.md` */
  readonly path: string;
  /** `<dir>/lab-log.md` */
  readonly labPath: string;

  private readonly dir: string;
  private readonly avatar: string;

  /** `dir` holds this avatar's TASK.md and lab-log.md (created on first use). */
  constructor(dir: string, avatar: string) {
    this.dir = dir;
    this.avatar = avatar;
    this.path = join(dir, 'TASK.md');
    this.labPath = join(dir, 'lab-log.md');
  }

  /**
   * The file's text; creates it with {@link initialTask} on first read. Should creating it fail (a full
   * disk), the initial text is returned all the same, so a turn can go on; the file is created by the next
   * read or {@link TaskFile.update}, which reports the error.
   */
  read(): Promise<string> {
    return files.run(this.path, () =>
      this.readOrCreate().catch(async (err: unknown) => {
        if ((await readIfExists(this.path)) !== null) throw err;
        return initialTask(this.avatar);
      }),
    );
  }

  /** Rewrite only mindlink's sections, atomically; writes nothing when the text would not change. */
  update(parts: MindlinkParts): Promise<void> {
    return files.run(this.path, async () => {
      const current = await this.readOrCreate();
      const next = renderTask(current, parts);
      if (next !== current) await writeAtomic(this.path, next);
    });
  }

  /**
   * Replace the avatar's own part with `own`, keeping mindlink's sections as they are.
   * Throws (and writes nothing) when `own` holds a mindlink section heading: those are mindlink's alone.
   */
  rewriteOwn(own: string): Promise<void> {
    if (regions(own).some((r) => r.mindlink)) {
      throw new Error(`your part must not contain the sections mindlink keeps (${MINDLINK_SECTIONS.map((h) => `## ${h}`).join(', ')})`);
    }
    return files.run(this.path, async () => this.writeOwn(await this.readOrCreate(), own));
  }

  /**
   * Replace the bodies of some of the avatar's own sections (`{ Goal: '…', Now: '…' }`), keeping the rest of its part
   * and mindlink's sections as they are (see {@link withSections}); writes nothing when the text would not change.
   */
  setOwnSections(bodies: Readonly<Record<string, string>>): Promise<void> {
    const theirs = Object.keys(bodies).filter((title) => MINDLINK_SECTIONS.some((h) => h.toLowerCase() === title.trim().toLowerCase()));
    if (theirs.length > 0) return Promise.reject(new Error(`${theirs.join(', ')}: a section mindlink keeps, not the avatar's`));
    return files.run(this.path, async () => {
      const current = await this.readOrCreate();
      await this.writeOwn(current, withSections(ownPart(current), bodies));
    });
  }

  /** Append `## <ISO date>` and the entry to the lab log. */
  appendLab(entry: string, now: Date): Promise<void> {
    return files.run(this.labPath, async () => {
      await mkdir(this.dir, { recursive: true });
      const existing = await readIfExists(this.labPath);
      const lead = existing === null || existing === '' ? '' : existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
      await appendFile(this.labPath, `${lead}## ${now.toISOString()}\n${entry.trim()}\n`, 'utf8');
    });
  }

  /**
   * The last `n` lessons of the lab log, oldest first, each one line of at most `max` characters (a leading
   * `Lesson:` left out): what the choose and resume prompts carry. A lesson written again in those `n` is said
   * once, where it came last, with how often (`(3 times)`). None when there is no lab log yet.
   *
   * @example
   * await task.lessons(5) // → ['"collect 3 oak logs" done in 12 s with 2 collect runs; that works here.']
   */
  lessons(n: number, max = LESSON_MAX): Promise<string[]> {
    return files.run(this.labPath, async () => {
      // Only the end of a long lab log is read: the last lessons are there.
      const { text, cut } = await readTail(this.labPath, LAB_TAIL_BYTES);
      const entries = text
        .split(/^## .*$/m)
        // Where the tail was cut, its first entry begins mid-way: only whole entries count.
        .slice(cut ? 1 : 0)
        .map((e) => oneLine(e).replace(/^lesson\s*:\s*/i, '').trim())
        .filter((e) => e !== '')
        .slice(-n);
      const times = new Map<string, number>();
      for (const e of entries) times.set(e, (times.get(e) ?? 0) + 1);
      return entries
        .filter((e, i) => entries.lastIndexOf(e) === i)
        .map((e) => {
          const n = times.get(e) ?? 1;
          return n > 1 ? `${cutOnWord(e, max - 10)} (${n} times)` : cutOnWord(e, max);
        });
    });
  }

  /** Resolves once every read and write queued so far on TASK.md and the lab log is done (before the folder moves). */
  async idle(): Promise<void> {
    await Promise.all([files.idleFor(this.path), files.idleFor(this.labPath)]);
  }

  /** Write `own` as the avatar's part of `current`, mindlink's sections after it; nothing when unchanged. */
  private async writeOwn(current: string, own: string): Promise<void> {
    const ours = regions(current)
      .filter((r) => r.mindlink)
      .map((r) => r.text)
      .join('');
    const mine = own.trim() === '' ? '' : `${own.replace(/\s+$/, '')}\n`;
    const next = mine && ours ? `${mine}\n${ours.replace(/^\n+/, '')}` : mine + ours;
    if (next !== current) await writeAtomic(this.path, next);
  }

  private async readOrCreate(): Promise<string> {
    const existing = await readIfExists(this.path);
    if (existing !== null) return existing;
    await mkdir(this.dir, { recursive: true });
    const text = initialTask(this.avatar);
    await writeAtomic(this.path, text);
    return text;
  }
}
