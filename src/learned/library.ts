/**
 * The skill library: the one writer of the skills avatars wrote and kept
 * (docs/skills.md). Per avatar, the folder `skills/` of its files
 * (`DATA_DIR/avatars/<name>/skills/`, or the database: `src/store/avatar-files.ts`) holds each
 * skill's code (`<skill>.js`) and manifest (`<skill>.json`, {@link ManifestSchema}),
 * each written atomically, an avatar's writes one after another. The folder
 * is part of the avatar's own: it moves with a renamed avatar and goes to
 * `removed/` with a removed one (`src/avatars/retire.ts`), so nothing here
 * remembers a name. A manifest that does not read (bad JSON, a field out of
 * its schema, its code missing) is set aside beside it as
 * `<skill>.json.corrupt-<time>` with a log line, and the rest are used.
 */
import type { Logger } from 'pino';
import { KeyedQueue } from '../keyed-queue.ts';
import { DiskAvatarFiles, type AvatarFiles, type AvatarFolder } from '../store/avatar-files.ts';
import { ManifestSchema, SKILL_NAME, type KeptSkill } from './manifest.ts';

/** The most skills one avatar keeps. */
export const MAX_KEPT_SKILLS = 100;

/** How one run of a kept skill went. */
export type RunOutcome = { ok: true } | { ok: false; message: string; line: number | null };

/** A kept skill and its code. */
export interface KeptSkillCode {
  skill: KeptSkill;
  code: string;
}

/** The folder of the kept skills among an avatar's files. */
const SKILLS = 'skills';
const js = (name: string): string => `${SKILLS}/${name}.js`;
const manifest = (name: string): string => `${SKILLS}/${name}.json`;

/**
 * @example
 * const library = new SkillLibrary(store.avatarFiles, log);
 * for (const s of await library.list('steve')) console.info(s.name, s.successes, '/', s.runs);
 */
export class SkillLibrary {
  readonly #files: AvatarFiles;
  readonly #log: Logger;
  readonly #writes = new KeyedQueue();
  readonly #now: () => Date;

  /** `files`: the avatars' files (`store.avatarFiles`), or the data folder whose `avatars/` holds them. */
  constructor(files: AvatarFiles | string, log: Logger, now: () => Date = () => new Date()) {
    this.#files = typeof files === 'string' ? new DiskAvatarFiles(files) : files;
    this.#log = log;
    this.#now = now;
  }

  /** Where an avatar's kept skills are: its folder `skills/` on disk (or the database's rows, named so). */
  dir(avatar: string): string {
    return this.#folder(avatar).where(SKILLS);
  }

  #folder(avatar: string): AvatarFolder {
    return this.#files.of(avatar);
  }

  /** Every skill the avatar keeps, by name; an unreadable manifest is set aside (logged) and left out. */
  async list(avatar: string): Promise<KeptSkill[]> {
    const files = await this.#folder(avatar).list(SKILLS);
    const names = files.filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)).filter((n) => SKILL_NAME.test(n));
    const read = await Promise.all(names.sort().map((name) => this.#read(avatar, name)));
    return read.flatMap((r) => (r ? [r.skill] : []));
  }

  /** One kept skill and its code, or undefined when the avatar keeps none of that name. */
  async get(avatar: string, name: string): Promise<KeptSkillCode | undefined> {
    if (!SKILL_NAME.test(name)) return undefined;
    return this.#read(avatar, name);
  }

  /**
   * Keep a skill that passed its trial run (a skill of the same name is replaced): its code, then its
   * manifest, each atomically. Only the writer of new skills (`writeSkill` of `learned-skills.ts`) calls it.
   */
  async keep(avatar: string, skill: KeptSkill, code: string): Promise<void> {
    const parsed = ManifestSchema.parse(skill);
    await this.#writes.run(avatar, async () => {
      const folder = this.#folder(avatar);
      await folder.write(js(parsed.name), code);
      await folder.write(manifest(parsed.name), `${JSON.stringify(parsed, null, 2)}\n`);
    });
  }

  /** Count one run of a kept skill (its runs, successes and last error). A skill removed meanwhile is left removed. */
  async recordRun(avatar: string, name: string, outcome: RunOutcome): Promise<void> {
    await this.#writes.run(avatar, async () => {
      const found = await this.#read(avatar, name);
      if (!found) return;
      const at = this.#now().toISOString();
      const next: KeptSkill = {
        ...found.skill,
        runs: found.skill.runs + 1,
        successes: found.skill.successes + (outcome.ok ? 1 : 0),
        lastRunAt: at,
        lastError: outcome.ok ? found.skill.lastError : { message: outcome.message.slice(0, 1000), line: outcome.line, at },
      };
      await this.#folder(avatar).write(manifest(name), `${JSON.stringify(next, null, 2)}\n`);
    });
  }

  /** Drop a kept skill (its manifest, then its code); false when there was none of that name. */
  async remove(avatar: string, name: string): Promise<boolean> {
    if (!SKILL_NAME.test(name)) return false;
    return this.#writes.run(avatar, async () => {
      const folder = this.#folder(avatar);
      if (!(await folder.remove(manifest(name)))) return false;
      await folder.remove(js(name));
      return true;
    });
  }

  /** Read and check one manifest and its code; set both aside when they do not read. */
  async #read(avatar: string, name: string): Promise<KeptSkillCode | undefined> {
    const folder = this.#folder(avatar);
    let text: string | null;
    try {
      text = await folder.read(manifest(name));
    } catch (err) {
      // A file the disk will not give (a folder in its place, no permission) is left where it is: one skill less.
      this.#log.warn({ err, avatar, skill: name }, 'a kept skill cannot be read; it is left out');
      return undefined;
    }
    if (text === null) return undefined;
    let problem: string;
    try {
      const parsed = ManifestSchema.safeParse(JSON.parse(text));
      if (!parsed.success) problem = parsed.error.issues.map((i) => `${i.path.join('.') || 'manifest'}: ${i.message}`).join('; ');
      else if (parsed.data.name !== name) problem = `it names the skill ${parsed.data.name}`;
      else {
        let code: string | null;
        try {
          code = await folder.read(js(name));
        } catch (err) {
          this.#log.warn({ err, avatar, skill: name }, 'a kept skill cannot be read; it is left out');
          return undefined;
        }
        if (code !== null) return { skill: parsed.data, code };
        problem = 'its code file is missing';
      }
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw err;
      problem = `it is not JSON: ${err.message}`;
    }
    await this.#setAside(avatar, name, problem);
    return undefined;
  }

  /** Move an unreadable skill's files aside (`<file>.corrupt-<time>`), logged; a later skill of the name is written anew. */
  async #setAside(avatar: string, name: string, problem: string): Promise<void> {
    await this.#writes.run(`${avatar}\u0000aside`, async () => {
      const folder = this.#folder(avatar);
      const stamp = this.#now().toISOString().replace(/[:.]/g, '-');
      const moved: string[] = [];
      for (const file of [`${name}.json`, `${name}.js`]) {
        if (await folder.rename(`${SKILLS}/${file}`, `${SKILLS}/${file}.corrupt-${stamp}`)) moved.push(`${file}.corrupt-${stamp}`);
      }
      if (moved.length > 0) this.#log.warn({ avatar, skill: name, problem, keptAs: moved }, 'a kept skill does not read; it is set aside');
    });
  }
}
