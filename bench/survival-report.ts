/**
 * What the survival benchmark says about where the time went and how the avatar died: each of its own goals with
 * how long it ran and how it ended, the time its skills and reflexes took within it (from the debug log), and
 * each death with its cause, place, game tick and the goal it was on.
 */

const seconds = (ms: number): string => `${(ms / 1000).toFixed(0)} s`;

interface GoalSpan {
  text: string;
  from: number;
  to?: number;
  outcome?: 'done' | 'left';
  /** Skill id → time spent in its runs and how many. */
  skills: Map<string, { ms: number; runs: number }>;
  /** Reflex → time spent and how many times it fired. */
  reflexes: Map<string, { ms: number; runs: number }>;
}

/** A death as the log says it, with what the avatar was doing. */
interface DeathNote {
  at: number;
  cause: string;
  where: string;
  tick: number | undefined;
  goal: string | undefined;
}

const add = (m: Map<string, { ms: number; runs: number }>, key: string, ms: number): void => {
  const v = m.get(key) ?? { ms: 0, runs: 0 };
  m.set(key, { ms: v.ms + ms, runs: v.runs + 1 });
};

/** The avatar's goals, skill runs, reflexes and deaths along one run, fed line by line. */
export class SurvivalTimeline {
  readonly #goals: GoalSpan[] = [];
  readonly #deaths: DeathNote[] = [];
  /**
   * Skill runs started and not yet ended, oldest first: the avatar host says a run started and the core says it
   * ended, so the start of a chained run can be logged just before the end of the one before it.
   */
  readonly #running: Array<{ id: string; from: number }> = [];
  #tick: number | undefined;

  #open(): GoalSpan | undefined {
    const g = this.#goals[this.#goals.length - 1];
    return g && g.to === undefined ? g : undefined;
  }

  /** The game's clock, as the avatar said it. */
  tick(t: number): void {
    this.#tick = t;
  }

  /** `New goal (my choice): text`: the one before it was left (replaced or blocked). */
  goal(text: string, at: number): void {
    const open = this.#open();
    if (open) Object.assign(open, { to: at, outcome: 'left' });
    this.#goals.push({ text, from: at, skills: new Map(), reflexes: new Map() });
  }

  /** `Done: text`. */
  done(text: string, at: number): void {
    const open = this.#open();
    if (open && open.text === text) Object.assign(open, { to: at, outcome: 'done' });
  }

  skillStarted(id: string, at: number): void {
    this.#running.push({ id, from: at });
  }

  skillEnded(id: string, at: number): void {
    const i = this.#running.findIndex((r) => r.id === id);
    if (i < 0) return;
    const [s] = this.#running.splice(0, i + 1).slice(-1);
    const open = this.#open();
    if (s && open) add(open.skills, id, at - s.from);
  }

  reflexEnded(reflex: string, ms: number): void {
    const open = this.#open();
    if (open) add(open.reflexes, reflex, ms);
  }

  died(at: number, cause: string, position: { x: number; y: number; z: number } | undefined): void {
    const where = position ? `${position.x} ${position.y} ${position.z}` : '?';
    this.#deaths.push({ at, cause, where, tick: this.#tick, goal: this.#open()?.text });
  }

  /** The report's lines, times counted from `since` (ready); goals still open end at `end`. */
  lines(since: number, end: number): string[] {
    const out: string[] = ['  goals (start after ready, how long, how it ended; time of its skill runs, a reflex within a run counted in both, and between them; the pause since the goal before):'];
    let prev: number | undefined;
    for (const g of this.#goals) {
      const pause = prev === undefined ? '' : `, after ${seconds(g.from - prev)}`;
      prev = g.to;
      const took = (g.to ?? end) - g.from;
      const runs = [...g.skills].map(([id, v]) => `${id} ${seconds(v.ms)}×${v.runs}`);
      const ref = [...g.reflexes].map(([id, v]) => `${id} ${seconds(v.ms)}×${v.runs}`);
      const busy = [...g.skills.values(), ...g.reflexes.values()].reduce((n, v) => n + v.ms, 0);
      const parts = [...runs, ...(ref.length ? [`reflexes: ${ref.join(', ')}`] : []), `between runs ${seconds(Math.max(0, took - busy))}`];
      out.push(`    ${seconds(g.from - since).padStart(6)} ${g.text}: ${seconds(took)}, ${g.outcome ?? 'still on at the end'} (${parts.join(', ')}${pause})`);
    }
    for (const d of this.#deaths) {
      out.push(`  death at ${seconds(d.at - since)}: ${d.cause} at ${d.where}, tick ${d.tick ?? '?'}, goal: ${d.goal ?? 'none'}`);
    }
    return out;
  }
}
