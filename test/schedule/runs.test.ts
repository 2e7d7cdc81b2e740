import { describe, expect, it } from 'vitest';
import { CATCH_UP_MS, checkCron, formatRun, missedRuns, nextRuns, resolveZone, slotOf } from '../../src/schedule/runs.ts';

const NOW = new Date('2026-12-01T08:30:00Z'); // a Tuesday
const iso = (ds: Date[]): string[] => ds.map((d) => d.toISOString());

describe('checking expressions and the next runs', () => {
  it('GIVEN 8:00 daily in Berlin in winter THEN the runs are 07:00 UTC and print as 08:00', () => {
    const r = checkCron('0 8 * * *', 'Europe/Berlin', NOW);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(iso(r.value)).toEqual(['2026-12-02T07:00:00.000Z', '2026-12-03T07:00:00.000Z', '2026-12-04T07:00:00.000Z']);
    expect(r.value.map((d) => formatRun(d, 'Europe/Berlin'))).toEqual(['Wed 2 Dec 08:00', 'Thu 3 Dec 08:00', 'Fri 4 Dec 08:00']);
  });

  it('GIVEN the same schedule in New York and UTC THEN the instants differ by the offset', () => {
    expect(iso(nextRuns('0 8 * * *', 'America/New_York', NOW, 1))).toEqual(['2026-12-01T13:00:00.000Z']);
    expect(iso(nextRuns('0 8 * * *', 'UTC', NOW, 1))).toEqual(['2026-12-02T08:00:00.000Z']);
  });

  it('GIVEN a summer date in Berlin THEN the run is at 06:00 UTC (DST)', () => {
    expect(iso(nextRuns('0 8 * * *', 'Europe/Berlin', new Date('2026-07-01T00:00:00Z'), 1))).toEqual(['2026-07-01T06:00:00.000Z']);
  });

  it('GIVEN weekdays at 18:30 on a Friday evening THEN the next run is Monday', () => {
    expect(iso(nextRuns('30 18 * * 1-5', 'UTC', new Date('2026-12-04T19:00:00Z'), 1))).toEqual(['2026-12-07T18:30:00.000Z']);
  });

  it('GIVEN a seconds field THEN the runs keep their seconds and print them', () => {
    const r = checkCron('5 30 9 * * *', 'UTC', NOW);
    expect(r.ok && iso(r.value)[0]).toBe('2026-12-01T09:30:05.000Z');
    expect(formatRun(new Date('2026-12-01T09:30:05Z'), 'UTC')).toBe('Tue 1 Dec 09:30:05');
  });

  it.each([
    ['60 * * * *', /^"60 \* \* \* \*": 60 does not fit: the minute is 0 to 59$/],
    ['0 25 * * *', /^"0 25 \* \* \*": 25 does not fit: the hour is 0 to 23$/],
    ['0 8 * * 9', /9 does not fit: the day of the week is 0 to 7/],
    ['* * *', /^"\* \* \*" has 3 fields; use a cron expression of 5 fields/],
    ['0 0 30 2 *', /never runs/],
    ['*/1 * * * *', /runs more often than every 5 minutes/],
    ['* * * * * *', /runs more often than every 5 minutes/],
    ['0 0 8 * * * 2030', /has 7 fields; use a cron expression of 5 fields \(minute hour day month weekday/],
    ['*/0 * * * *', /a step \(\*\/n\) is a whole number of 1 or more/],
    ['a b c d e', /field 1 \("a"\) holds something no cron field takes/],
    ['@reboot', /^"@reboot" would run when the machine starts, which is no time of day: use a time, e\.g\. @daily/],
    ['@fortnightly', /^"@fortnightly" is not a schedule name I know/],
  ])('GIVEN "%s" THEN it is refused naming what is wrong in mindlink\'s words', (cron, re) => {
    const r = checkCron(cron, 'UTC', NOW);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toMatch(re);
      // croner's own words (its class names, "environment", "parts", "Invalid value") never reach a chat.
      expect(r.error).not.toMatch(/CronPattern|environment|startup detection|Invalid value|parts|configuration/);
    }
  });

  it('GIVEN a firing a moment early or late THEN it belongs to the scheduled slot', () => {
    expect(slotOf('0 8 * * *', 'UTC', new Date('2026-12-01T07:59:59.990Z'))?.toISOString()).toBe('2026-12-01T08:00:00.000Z');
    expect(slotOf('0 8 * * *', 'UTC', new Date('2026-12-01T08:00:00.020Z'))?.toISOString()).toBe('2026-12-01T08:00:00.000Z');
  });
});

describe('runs missed while mindlink was down', () => {
  const created = '2026-11-01T00:00:00.000Z';

  it('GIVEN the 08:00 run 30 minutes ago never ran THEN it is made up', () => {
    expect(missedRuns('0 8 * * *', 'UTC', '2026-11-30T08:00:00.000Z', created, NOW)).toEqual({
      kind: 'run',
      slot: new Date('2026-12-01T08:00:00Z'),
      skipped: 0,
    });
  });

  it('GIVEN the last run is already recorded THEN nothing is missed (never twice)', () => {
    expect(missedRuns('0 8 * * *', 'UTC', '2026-12-01T08:00:00.000Z', created, NOW)).toEqual({ kind: 'none' });
  });

  it('GIVEN the missed run is more than an hour late THEN it is skipped', () => {
    const later = new Date(Date.parse('2026-12-01T08:00:00Z') + CATCH_UP_MS + 1000);
    expect(missedRuns('0 8 * * *', 'UTC', '2026-11-30T08:00:00.000Z', created, later)).toMatchObject({ kind: 'skip', skipped: 0 });
  });

  it('GIVEN a schedule made after its last slot THEN nothing is missed', () => {
    expect(missedRuns('0 8 * * *', 'UTC', null, '2026-12-01T08:10:00.000Z', NOW)).toEqual({ kind: 'none' });
  });

  it('GIVEN hourly runs missed over three hours THEN the latest is made up and two are counted skipped', () => {
    expect(missedRuns('0 * * * *', 'UTC', '2026-12-01T07:00:00.000Z', created, new Date('2026-12-01T10:10:00Z'))).toEqual({
      kind: 'run',
      slot: new Date('2026-12-01T10:00:00Z'),
      skipped: 2,
    });
  });

  it('GIVEN Berlin time THEN the missed slot is the Berlin 08:00', () => {
    expect(missedRuns('0 8 * * *', 'Europe/Berlin', null, created, new Date('2026-12-01T07:20:00Z'))).toMatchObject({
      kind: 'run',
      slot: new Date('2026-12-01T07:00:00Z'),
    });
  });
});

describe('time zones', () => {
  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    ['europe/berlin', 'Europe/Berlin'],
    ['UTC', 'UTC'],
    ['utc', 'UTC'],
    ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ['Europe/Kiev', 'Europe/Kiev'],
  ])('GIVEN "%s" THEN it is %s', (text, zone) => {
    expect(resolveZone(text)).toEqual({ ok: true, value: zone });
  });

  it.each([
    ['Berlin', /"Berlin" is not an IANA time zone\. Did you mean Europe\/Berlin\?/],
    ['new york', /Did you mean America\/New_York\?/],
    ['Mars/Base', /"Mars\/Base" is not an IANA time zone\. Use a name like Europe\/Berlin/],
    ['+02:00', /is not an IANA time zone/],
    ['CET', /is not an IANA time zone/],
    ['Europe/Berlin\u0007', /is not an IANA time zone/],
  ])('GIVEN "%s" THEN it is refused with a hint', (text, re) => {
    const r = resolveZone(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(re);
  });
});
