import { describe, expect, it } from 'vitest';
import { looksLikeCron, parseTimeOfDay, parseWhen, splitSchedule } from '../../src/schedule/when.ts';

function when(text: string): { cron: string; label: string } {
  const r = parseWhen(text);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

function split(text: string): { cron: string; goal: string } {
  const r = splitSchedule(text);
  if (!r.ok) throw new Error(r.error);
  return { cron: r.value.when.cron, goal: r.value.goal };
}

function error(text: string): string {
  const r = splitSchedule(text);
  if (r.ok) throw new Error(`parsed: ${JSON.stringify(r.value)}`);
  return r.error;
}

describe('plain schedules → cron expressions', () => {
  it.each([
    ['every day at 8:00', '0 8 * * *', 'every day at 08:00'],
    ['daily at 7', '0 7 * * *', 'every day at 07:00'],
    ['at 6:30pm', '30 18 * * *', 'every day at 18:30'],
    ['every day at noon', '0 12 * * *', 'every day at 12:00'],
    ['every day at midnight', '0 0 * * *', 'every day at 00:00'],
    ['every day at 12am', '0 0 * * *', 'every day at 00:00'],
    ['weekdays at 18:30', '30 18 * * 1-5', 'weekdays at 18:30'],
    ['every weekday at 9.15', '15 9 * * 1-5', 'weekdays at 09:15'],
    ['weekends at 10am', '0 10 * * 0,6', 'weekends at 10:00'],
    ['every monday at 9', '0 9 * * 1', 'every Monday at 09:00'],
    ['mondays at 9', '0 9 * * 1', 'every Monday at 09:00'],
    ['every mon and fri at 6:30 pm', '30 18 * * 1,5', 'every Monday and Friday at 18:30'],
    ['on tue, thu at 20h00', '0 20 * * 2,4', 'every Tuesday and Thursday at 20:00'],
    ['every hour', '0 * * * *', 'every hour'],
    ['hourly', '0 * * * *', 'every hour'],
    ['every 2 hours', '0 */2 * * *', 'every 2 hours'],
    ['every 30 minutes', '*/30 * * * *', 'every 30 minutes'],
    ['Every Day At 8:00', '0 8 * * *', 'every day at 08:00'],
  ])('GIVEN "%s" THEN it is %s', (text, cron, label) => {
    expect(when(text)).toEqual({ cron, label });
  });

  it('GIVEN a cron expression or a nickname THEN it passes as written', () => {
    expect(when('0 8 * * 1-5')).toEqual({ cron: '0 8 * * 1-5', label: '0 8 * * 1-5' });
    expect(when('30 0 8 * * MON-FRI').cron).toBe('30 0 8 * * MON-FRI');
    expect(when('@daily').cron).toBe('@daily');
    expect(looksLikeCron('dig a hole now please')).toBe(false);
  });

  it.each([
    ['every 7 hours', /every 7 hours does not divide the day evenly; use 1, 2, 3, 4, 6, 8, 12 hours/],
    ['every 7 minutes', /every 7 minutes does not divide the hour evenly/],
    ['every 1 minute', /^every minute is too often: runs are at least 5 minutes apart/],
    ['every 3 minutes', /^every 3 minutes is too often: runs are at least 5 minutes apart/],
    ['every day at 25:00', /"25:00": the hour is 0 to 23/],
    ['every day at 8:75', /"8:75": the minutes are 00 to 59/],
    ['every day at 13pm', /with am\/pm the hour is 1 to 12/],
    ['every funday at 9', /"funday" is not a day of the week/],
    ['every day at teatime', /"teatime" is not a time of day/],
    ['sometimes', /"sometimes" is not a schedule I understand: try "every day at 8:00"/],
  ])('GIVEN "%s" THEN the error names what is wrong', (text, re) => {
    const r = parseWhen(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(re);
  });

  it('GIVEN times of day THEN 24-hour values come out', () => {
    expect(parseTimeOfDay('12pm')).toEqual({ ok: true, value: { hour: 12, minute: 0 } });
    expect(parseTimeOfDay('08:05')).toEqual({ ok: true, value: { hour: 8, minute: 5 } });
    expect(parseTimeOfDay('11:59 p.m.')).toEqual({ ok: true, value: { hour: 23, minute: 59 } });
  });
});

describe('splitting /schedule text into <when> and the goal', () => {
  it('GIVEN plain forms followed by a goal THEN the longest schedule start is taken', () => {
    expect(split('every day at 8:00 collect 10 oak logs')).toEqual({ cron: '0 8 * * *', goal: 'collect 10 oak logs' });
    expect(split('every day at 8 pm go to 0 64 0')).toEqual({ cron: '0 20 * * *', goal: 'go to 0 64 0' });
    expect(split('at 8 10 oak logs')).toEqual({ cron: '0 8 * * *', goal: '10 oak logs' });
    expect(split('every 2 hours, collect logs')).toEqual({ cron: '0 */2 * * *', goal: 'collect logs' });
    expect(split('weekdays at 18:30 Goal: come to alex')).toEqual({ cron: '30 18 * * 1-5', goal: 'come to alex' });
    expect(split('hourly: explore')).toEqual({ cron: '0 * * * *', goal: 'explore' });
  });

  it('GIVEN cron expressions followed by a goal THEN five or six fields are taken', () => {
    expect(split('0 8 * * 1-5 mine 5 stone')).toEqual({ cron: '0 8 * * 1-5', goal: 'mine 5 stone' });
    expect(split('0 8 * * * dig a hole')).toEqual({ cron: '0 8 * * *', goal: 'dig a hole' });
    expect(split('30 0 8 * * * explore')).toEqual({ cron: '30 0 8 * * *', goal: 'explore' });
    expect(split('@hourly say hello')).toEqual({ cron: '@hourly', goal: 'say hello' });
  });

  it('GIVEN a quoted or |-separated <when> THEN it is taken as written', () => {
    expect(split('"at noon" say hi')).toEqual({ cron: '0 12 * * *', goal: 'say hi' });
    expect(split('every day at 9 | 10 logs')).toEqual({ cron: '0 9 * * *', goal: '10 logs' });
  });

  it('GIVEN a bad schedule or no goal THEN the error says which', () => {
    expect(error('every day at 25:00 collect logs')).toMatch(/"25:00": the hour is 0 to 23/);
    expect(error('every funday at 9 dig')).toMatch(/"funday" is not a day of the week/);
    expect(error('every 7 hours collect logs')).toMatch(/does not divide the day evenly/);
    expect(error('collect logs tomorrow')).toMatch(/does not start with a schedule/);
    expect(error('every day at 8:00')).toMatch(/say what the goal is after "every day at 08:00"/);
    expect(error('0 8 * * *')).toMatch(/say what the goal is/);
    expect(error('')).toMatch(/say when and what/);
    expect(error('"every day at 8 collect logs')).toMatch(/the quote around <when> is not closed/);
    expect(error('every 0 hours x')).toMatch(/every 0 hours is no schedule/);
  });
});
