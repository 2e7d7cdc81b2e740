/**
 * Goals that can never be done are refused up front (nothing stored, the
 * current goal kept), and parked goals can be listed and dropped by whoever
 * controls the avatar. Real core over the console bridge.
 */
import { describe, expect, it } from 'vitest';
import { TestEngine } from '../fakes/test-engine.ts';
import { coresPerTest } from './console-harness.ts';

/** Reasons a skill or the goal language gives, with ids, codes and placeholders in them. */
const REASONS: [RegExp, string][] = [
  [/planks/, 'oak_planks cannot be crafted (bad_params)'],
  [/meet/, 'I can only go to coordinates, like "go to 10 64 -20" (or "come to <player>")'],
];

/**
 * Explores when choosing; reports any goal that mentions "moat" or "tower" as blocked. A goal with one of the
 * {@link REASONS} is blocked with that reason, then left for exploring (so it is parked with the reason).
 */
const blockingEngine = (): TestEngine =>
  new TestEngine((req) => {
    if (req.kind === 'choose') return 'GOAL: explore\nSTATUS: working';
    if (req.goal && /moat|tower/.test(req.goal.text)) return 'No shovel here.\nSTATUS: blocked';
    const reason = REASONS.find(([re]) => req.goal && re.test(req.goal.text))?.[1];
    if (reason && req.kind === 'blocked') return 'GOAL: explore\nSTATUS: working';
    if (reason && req.kind !== 'wrapup') return `${reason}\nSTATUS: blocked`;
    return 'STATUS: working';
  });

const start = coresPerTest('impossible', blockingEngine);

describe('goals that can never be done', () => {
  it('GIVEN counts and places no world has THEN each goal is refused with the reason, nothing is stored and the current goal stays', async () => {
    const r = await start();
    const cases: [string, RegExp][] = [
      ['collect -5 dirt', /a count must be a whole number from 1 to 2304/],
      ['collect 0 dirt', /a count must be a whole number from 1 to 2304/],
      ['collect 1.000 dirt', /"1\.000" could be a thousand-something or a fraction/],
      ['go to 1e308 64 -1e308', /that is outside the world border/],
      ['collect 99999999999999999999 dirt', /99999999999999999999 is more than a full inventory holds/],
      ['get 1 air', /air is not something anyone can hold/],
      ['collect 3 unobtanium', /Minecraft has no item called "unobtanium"; the nearest I know are [a-z ]+, [a-z ]+, [a-z ]+/],
      ['get 2 diamnods', /Minecraft has no item called "diamnods"; the nearest I know are diamond, /],
    ];
    for (const [goal, reason] of cases) {
      const before = r.lines.length;
      r.send(`Goal: ${goal}`);
      const reply = await r.line(new RegExp(`^\\[demo\\] I can't take that goal: ${reason.source}.*Nothing was changed: my goal is still explore\\.$`));
      expect(r.lines.slice(before)).not.toContain(`[demo] New goal from console: ${goal}.`);
      expect(reply).not.toMatch(/1e\+?20|100000000000000000000/);
    }
    const demo = r.core.avatars.get('demo');
    expect(demo?.goal?.text).toBe('explore');
    expect(demo?.parked).toEqual([]);
    expect(r.core.store.record.data.goals.filter((g) => g.outcome === 'parked')).toEqual([]);
  });

  it('GIVEN /goal naming an item Minecraft does not have THEN it is refused at once, as Goal: is, and a real item is taken', async () => {
    const r = await start();
    r.send('/goal collect 3 unobtanium');
    await r.line(/^\[demo\] I can't take that goal: Minecraft has no item called "unobtanium"; the nearest I know are .+\. Nothing was changed: my goal is still explore\.$/);
    expect(r.core.avatars.get('demo')?.goal?.text).toBe('explore');
    r.send('/schedule every day at 8:00 get 2 unobtanium');
    await r.line(/^\[demo\] I could never do "get 2 unobtanium": Minecraft has no item called "unobtanium"/);
    expect(r.core.store.schedules.data.schedules).toEqual([]);
    r.send('/goal get 2 cooked beef');
    await r.line(/^\[demo\] New goal from console: get 2 cooked beef\.$/);
  });

  it('GIVEN /schedule with a goal that can never be done THEN it is refused and nothing is scheduled', async () => {
    const r = await start();
    r.send('/schedule at noon collect -5 dirt');
    await r.line(/^\[demo\] I could never do "collect -5 dirt": a count must be a whole number from 1 to 2304\. Nothing was scheduled\.$/);
    r.send('/schedule every day at 8:00 go to 10 64 99999999');
    await r.line(/^\[demo\] I could never do "go to 10 64 99999999": that is outside the world border/);
    expect(r.core.store.schedules.data.schedules).toEqual([]);
  });

  it('GIVEN goals parked after being blocked THEN /parked lists them numbered and /unpark drops one, then all', async () => {
    const r = await start();
    r.send('/parked');
    await r.line(/^\[demo\] No parked goals\.$/);
    r.send('Goal: dig a moat');
    await r.line(/^\[demo\] Parked your goal for later: dig a moat \(blocked repeatedly\)$/);
    r.send('Goal: build a tower');
    await r.line(/^\[demo\] Parked your goal for later: build a tower \(blocked repeatedly\)$/);
    r.send('/parked');
    await r.line(/^\[demo\] 1\. dig a moat · parked \d{4}-\d{2}-\d{2} \(blocked repeatedly\) · set by console$/);
    await r.line(/^\[demo\] 2\. build a tower · parked \d{4}-\d{2}-\d{2} \(blocked repeatedly\) · set by console$/);
    r.send('/unpark 3');
    await r.line(/^\[demo\] There is no parked goal 3: I have 2 \(1–2; \/parked lists them\)\. Nothing was dropped\.$/);
    r.send('/unpark 1');
    await r.line(/^\[demo\] Dropped the parked goal dig a moat\. 1 still parked \(\/parked\)\.$/);
    expect(r.core.avatars.get('demo')?.parked.map((p) => p.text)).toEqual(['build a tower']);
    r.send('/unpark all demo');
    await r.line(/^\[demo\] Dropped the parked goal build a tower\. No parked goals left\.$/);
    r.send('/status');
    await r.line(/^\[demo\] position /);
    expect(r.lines.filter((l) => l.startsWith('[demo] parked:'))).toEqual([]);
    expect(r.core.avatars.get('demo')?.parked).toEqual([]);
  });

  it('GIVEN goals parked with reasons that hold ids, codes and <placeholders> THEN /parked shows the reasons as written', async () => {
    const r = await start();
    r.send('Goal: craft 3 oak planks');
    await r.line(/^\[demo\] Parked your goal for later: craft 3 oak planks \(oak_planks cannot be crafted \(bad_params\)\)$/);
    r.send('Goal: meet me at the old_mill');
    await r.line(/^\[demo\] Parked your goal for later: meet me at the old_mill /);
    const before = r.lines.length;
    r.send('/parked');
    await r.line(/^\[demo\] \/unpark <n\|all>/);
    const listed = r.lines
      .slice(before)
      .filter((l) => /^\[demo\] \d+\. /.test(l))
      .map((l) => l.replace(/parked \d{4}-\d{2}-\d{2}/, 'parked DAY'));
    expect(listed).toEqual([
      '[demo] 1. craft 3 oak planks · parked DAY (oak_planks cannot be crafted (bad_params)) · set by console',
      '[demo] 2. meet me at the old_mill · parked DAY (I can only go to coordinates, like "go to 10 64 -20" (or "come to <player>")) · set by console',
    ]);
  });
});
