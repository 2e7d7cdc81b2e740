/**
 * The skill library: the one writer of the skills avatars wrote and kept
 * (docs/skills.md). Per avatar, `DATA_DIR/avatars/<name>/skills/` holds each
 * skill's code (`<skill>.js`) and manifest (`<skill>.json`, {@link ManifestSchema}),
 * each written atomically, an avatar's writes one after another. The folder
 * is part of the avatar's own: it moves with a renamed avatar and goes to
 * `removed/` with a removed one (`src/avatars/retire.ts`), so nothing here
 * remembers a name. A manifest that does not read (bad JSON, a field out of
 * its schema, its code missing) is set aside beside it as
 * `<skill>.json.corrupt-<time>` with a log line, and the rest are used.
 */
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { KeyedQueue } from '../keyed-queue.ts';
import { writeAtomic } from '../store/atomic-write.ts';
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

function missing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/**
 * @example
 * const library = new SkillLibrary(config.DATA_DIR, log);
 * for (const s of await library.list('steve')) console.info(s.name, s.successes, '/', s.runs);
 */
export class SkillLibrary {
  readonly #dataDir: string;
  readonly #log: Logger;
  readonly #writes = new KeyedQueue();
  readonly #now: () => Date;

  constructor(dataDir: string, log: Logger, now: () => Date = () => new Date()) {
    this.#dataDir = dataDir;
    this.#log = log;
    this.#now = now;
  }

  /** The folder of an avatar's kept skills. */
  dir(avatar: string): string {
    return join(this.#dataDir, 'avatars', avatar, 'skills');
  }

  /** Every skill the avatar keeps, by name; an unreadable manifest is set aside (logged) and left out. */
  async list(avatar: string): Promise<KeptSkill[]> {
    let files: string[];
    try {
      files = await readdir(this.dir(avatar));
    } catch (err) {
      if (missing(err)) return [];
      throw err;
    }
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
      const dir = this.dir(avatar);
      await mkdir(dir, { recursive: true });
      await writeAtomic(join(dir, `${parsed.name}.js`), code);
      await writeAtomic(join(dir, `${parsed.name}.json`), `${JSON.stringify(parsed, null, 2)}\n`);
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
      await writeAtomic(join(this.dir(avatar), `${name}.json`), `${JSON.stringify(next, null, 2)}\n`);
    });
  }

  /** Drop a kept skill (its manifest, then its code); false when there was none of that name. */
  async remove(avatar: string, name: string): Promise<boolean> {
    if (!SKILL_NAME.test(name)) return false;
    return this.#writes.run(avatar, async () => {
      const dir = this.dir(avatar);
      try {
        await rm(join(dir, `${name}.json`));
      } catch (err) {
        if (missing(err)) return false;
        throw err;
      }
      await rm(join(dir, `${name}.js`), { force: true });
      return true;
    });
  }

  /** Read and check one manifest and its code; set both aside when they do not read. */
  async #read(avatar: string, name: string): Promise<KeptSkillCode | undefined> {
    const dir = this.dir(avatar);
    const manifestPath = join(dir, `${name}.json`);
    let text: string;
    try {
      text = await readFile(manifestPath, 'utf8');
    } catch (err) {
      // A file the disk will not give (a folder in its place, no permission) is left where it is: one skill less.
      if (!missing(err)) this.#log.warn({ err, avatar, skill: name }, 'a kept skill cannot be read; it is left out');
      return undefined;
    }
    let problem: string;
    try {
      const parsed = ManifestSchema.safeParse(JSON.parse(text));
      if (!parsed.success) problem = parsed.error.issues.map((i) => `${i.path.join('.') || 'manifest'}: ${i.message}`).join('; ');
      else if (parsed.data.name !== name) problem = `it names the skill ${parsed.data.name}`;
      else {
        try {
          return { skill: parsed.data, code: await readFile(join(dir, `${name}.js`), 'utf8') };
        } catch (err) {
          if (!missing(err)) {
            this.#log.warn({ err, avatar, skill: name }, 'a kept skill cannot be read; it is left out');
            return undefined;
          }
          problem = 'its code file is missing';
        }
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
      const dir = this.dir(avatar);
      const stamp = this.#now().toISOString().replace(/[:.]/g, '-');
      const moved: string[] = [];
      for (const file of [`${name}.json`, `${name}.js`]) {
        try {
          await rename(join(dir, file), join(dir, `${file}.corrupt-${stamp}`));
          moved.push(`${file}.corrupt-${stamp}`);
        } catch (err) {
          if (!missing(err)) throw err;
        }
      }
      if (moved.length > 0) this.#log.warn({ avatar, skill: name, problem, keptAs: moved }, 'a kept skill does not read; it is set aside');
    });
  }
}
