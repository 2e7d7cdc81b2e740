/**
 * One avatar's TASK.md and lab log on disk: reads, atomic serialised writes of
 * mindlink's sections, the avatar's own rewrites and lab-log entries. What the
 * file says is `task-md.ts`'s job (pure text functions).
 */
import { KeyedQueue } from '../keyed-queue.ts';
import { DiskAvatarFiles, type AvatarFolder } from '../store/avatar-files.ts';
import { cutOnWord, oneLine } from '../text.ts';
import { initialTask, MINDLINK_SECTIONS, ownPart, regions, renderTask, withSections, type MindlinkParts } from './task-md.ts';

/** Most characters of one lesson in a prompt. */
const LESSON_MAX = 100;

/** How much of the end of the lab log is read for its last lessons. */
const LAB_TAIL_BYTES = 32 * 1024;

/** The file names in the avatar's folder. */
const TASK = 'TASK.md';
const LAB = 'lab-log.md';

/** One queue per file, so writes to one file never overlap (even from two TaskFile objects). */
const files = new KeyedQueue();

/**
 * One avatar's TASK.md and lab log, in its folder of {@link AvatarFolder} (on disk, or in the database).
 *
 * @example
 * const task = new TaskFile(store.avatarFiles.of('steve'), 'steve');
 * const md = await task.read();
 * await task.update({ open: book.open, done: book.done, finished });
 * await task.appendLab('Trees are east of spawn; bring an axe.', new Date());
 */
export class TaskFile {
  /** Where TASK.md is (`<dir>/TASK.md` on disk). */
  readonly path: string;
  /** Where the lab log is (`<dir>/lab-log.md` on disk). */
  readonly labPath: string;

  private readonly folder: AvatarFolder;
  private readonly avatar: string;

  /** `where` holds this avatar's TASK.md and lab-log.md (created on first use): its folder, or a folder on disk. */
  constructor(where: AvatarFolder | string, avatar: string) {
    this.folder = typeof where === 'string' ? DiskAvatarFiles.folderAt(where, avatar) : where;
    this.avatar = avatar;
    this.path = this.folder.where(TASK);
    this.labPath = this.folder.where(LAB);
  }

  /**
   * The file's text; creates it with {@link initialTask} on first read. Should creating it fail (a full
   * disk), the initial text is returned all the same, so a turn can go on; the file is created by the next
   * read or {@link TaskFile.update}, which reports the error.
   */
  read(): Promise<string> {
    return files.run(this.path, () =>
      this.readOrCreate().catch(async (err: unknown) => {
        if ((await this.folder.read(TASK)) !== null) throw err;
        return initialTask(this.avatar);
      }),
    );
  }

  /** Rewrite only mindlink's sections, atomically; writes nothing when the text would not change. */
  update(parts: MindlinkParts): Promise<void> {
    return files.run(this.path, async () => {
      const current = await this.readOrCreate();
      const next = renderTask(current, parts);
      if (next !== current) await this.folder.write(TASK, next);
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
      // Only the last two bytes tell how the log ends.
      const { text: end } = await this.folder.tail(LAB, 2);
      const lead = end === '' ? '' : end.endsWith('\n\n') ? '' : end.endsWith('\n') ? '\n' : '\n\n';
      await this.folder.append(LAB, `${lead}## ${now.toISOString()}\n${entry.trim()}\n`);
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
      const { text, cut } = await this.folder.tail(LAB, LAB_TAIL_BYTES);
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
    if (next !== current) await this.folder.write(TASK, next);
  }

  private async readOrCreate(): Promise<string> {
    const existing = await this.folder.read(TASK);
    if (existing !== null) return existing;
    const text = initialTask(this.avatar);
    await this.folder.write(TASK, text);
    return text;
  }
}
