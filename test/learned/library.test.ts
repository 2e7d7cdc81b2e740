/**
 * The skill library on real files (src/learned/library.ts): what it writes,
 * how it reads back, what it does with a manifest that does not read, and a
 * write that fails.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { SkillLibrary } from '../../src/learned/library.ts';
import type { KeptSkill } from '../../src/learned/manifest.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'mindlink-learned-'));
  dirs.push(d);
  return d;
}

/** A logger whose lines the test reads. */
function logLines(): { log: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'debug' }, sink), lines };
}

const AT = new Date('2030-05-06T07:08:09.000Z');

function skill(name: string, extra: Partial<KeptSkill> = {}): KeptSkill {
  return {
    version: 1,
    name,
    description: `does ${name}`,
    params: { type: 'object', properties: {}, required: [] },
    goal: 'collect 3 oak logs',
    postcondition: null,
    createdAt: AT.toISOString(),
    runs: 1,
    successes: 1,
    lastRunAt: AT.toISOString(),
    lastError: null,
    ...extra,
  };
}

describe('the skill library', () => {
  it('GIVEN two skills kept THEN each is its code and its manifest and nothing else, listed by name, and a run is counted in the manifest', async () => {
    const dir = await tempDir();
    const library = new SkillLibrary(dir, logLines().log, () => AT);
    await library.keep('steve', skill('plant_trees'), "await say({ text: 'planting' });\n");
    await library.keep('steve', skill('chop_oak'), "await collect({ item: 'oak_log', count: 1 });\n");
    expect((await readdir(library.dir('steve'))).sort()).toEqual(['chop_oak.js', 'chop_oak.json', 'plant_trees.js', 'plant_trees.json']);
    expect(library.dir('steve')).toBe(join(dir, 'avatars', 'steve', 'skills'));
    expect((await library.list('steve')).map((s) => s.name)).toEqual(['chop_oak', 'plant_trees']);
    expect(await library.list('bob')).toEqual([]);
    expect((await library.get('steve', 'chop_oak'))?.code).toBe("await collect({ item: 'oak_log', count: 1 });\n");
    expect(await library.get('steve', '../bob/skills/chop_oak')).toBeUndefined();

    await library.recordRun('steve', 'chop_oak', { ok: false, message: 'line 1: collect failed: no oak_log near (no_target)', line: 1 });
    await library.recordRun('steve', 'chop_oak', { ok: true });
    const manifest = JSON.parse(await readFile(join(library.dir('steve'), 'chop_oak.json'), 'utf8')) as KeptSkill;
    expect(manifest).toMatchObject({ runs: 3, successes: 2, lastRunAt: AT.toISOString(), lastError: { line: 1, message: 'line 1: collect failed: no oak_log near (no_target)' } });

    expect(await library.remove('steve', 'chop_oak')).toBe(true);
    expect(await library.remove('steve', 'chop_oak')).toBe(false);
    // A run that ends after its skill was removed does not bring it back.
    await library.recordRun('steve', 'chop_oak', { ok: true });
    expect((await readdir(library.dir('steve'))).sort()).toEqual(['plant_trees.js', 'plant_trees.json']);
  });

  it('GIVEN a manifest that is not JSON, one with a field out of its schema, one naming another skill and one without its code THEN each is set aside with a log line and the good one is listed; a skill of the name can be kept again', async () => {
    const dir = await tempDir();
    const { log, lines } = logLines();
    const library = new SkillLibrary(dir, log, () => AT);
    await library.keep('steve', skill('good_one'), 'return 1;');
    const folder = library.dir('steve');
    await writeFile(join(folder, 'not_json.json'), '{"version": 1, "name": ');
    await writeFile(join(folder, 'not_json.js'), 'return 2;');
    await writeFile(join(folder, 'bad_runs.json'), JSON.stringify(skill('bad_runs', { runs: -3 })));
    await writeFile(join(folder, 'bad_runs.js'), 'return 3;');
    await writeFile(join(folder, 'other_name.json'), JSON.stringify(skill('good_one')));
    await writeFile(join(folder, 'other_name.js'), 'return 4;');
    await writeFile(join(folder, 'no_code.json'), JSON.stringify(skill('no_code')));

    expect((await library.list('steve')).map((s) => s.name)).toEqual(['good_one']);
    const stamp = '2030-05-06T07-08-09-000Z';
    expect((await readdir(folder)).sort()).toEqual(
      [
        'bad_runs.js',
        'bad_runs.json',
        'good_one.js',
        'good_one.json',
        'no_code.json',
        'not_json.js',
        'not_json.json',
        'other_name.js',
        'other_name.json',
      ]
        .map((f) => (f.startsWith('good_one') ? f : `${f}.corrupt-${stamp}`))
        .sort(),
    );
    const warned = lines.filter((l) => l.msg === 'a kept skill does not read; it is set aside');
    expect(warned.map((l) => [l.skill, l.problem])).toEqual(
      expect.arrayContaining([
        ['not_json', expect.stringMatching(/^it is not JSON: /)],
        ['bad_runs', expect.stringMatching(/^runs: /)],
        ['other_name', 'it names the skill good_one'],
        ['no_code', 'its code file is missing'],
      ]),
    );
    expect(warned).toHaveLength(4);
    expect(await library.list('steve')).toHaveLength(1);

    await library.keep('steve', skill('bad_runs'), 'return 5;');
    expect((await library.list('steve')).map((s) => s.name)).toEqual(['bad_runs', 'good_one']);
  });

  it('GIVEN a write the disk refuses THEN the kept skill is as it was and no temp file is left', async () => {
    const dir = await tempDir();
    const library = new SkillLibrary(dir, logLines().log, () => AT);
    await library.keep('steve', skill('chop_oak'), 'return 1;');
    const folder = library.dir('steve');
    // The new manifest cannot replace a folder standing where it goes.
    await library.keep('steve', skill('blocked'), 'return 1;');
    await rm(join(folder, 'blocked.json'));
    await mkdir(join(folder, 'blocked.json'));
    await expect(library.keep('steve', skill('blocked', { description: 'new' }), 'return 2;')).rejects.toThrow();
    await library.recordRun('steve', 'chop_oak', { ok: true });
    expect((await readdir(folder)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(await library.list('steve')).toMatchObject([{ name: 'chop_oak', runs: 2 }]);
  });
});
