/**
 * `/skills`, `/skill show` and `/skill remove` through the core (docs/commands.md): who may list, read and
 * drop the skills an avatar wrote, how its code is shown, and that its skills follow it when it is renamed
 * and go with it when it is removed. Real core, real files; the skills are put in place by the library.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../src/chat.ts';
import type { Mindlink } from '../../src/core.ts';
import type { KeptSkill } from '../../src/learned/manifest.ts';
import { startConsoleCore, type ConsoleCore } from './console-harness.ts';

const dirs: string[] = [];
const running: Mindlink[] = [];

afterEach(async () => {
  for (const c of running.splice(0)) await c.stop();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

const TOKEN = { TELEGRAM_TOKEN: '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghi' };

async function start(): Promise<ConsoleCore & { dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'mindlink-skills-cmd-'));
  dirs.push(dir);
  const r = await startConsoleCore(dir, { env: TOKEN });
  running.push(r.core);
  await r.line(/^\[demo\] New goal \(my choice\): explore$/);
  return { ...r, dir };
}

function skill(name: string, extra: Partial<KeptSkill> = {}): KeptSkill {
  return {
    version: 1,
    name,
    description: `Chop ${name.replace(/_/g, ' ')}`,
    params: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
    goal: 'collect 3 oak logs',
    postcondition: 'collect {count} oak logs',
    createdAt: '2030-01-01T00:00:00.000Z',
    runs: 4,
    successes: 3,
    lastRunAt: '2030-01-02T00:00:00.000Z',
    lastError: { message: 'line 2: collect failed: no oak_log near (no_target)', line: 2, at: '2030-01-02T00:00:00.000Z' },
    ...extra,
  };
}

/** A Telegram member of the group demo is linked to, who may watch it. */
const watcher = (text = ''): InboundMessage => ({ platform: 'telegram', from: 'telegram:5', fromName: 'ann', dest: 'telegram:-100', chatKind: 'group', messageId: '1', text });

describe('the skills an avatar wrote, in chat', () => {
  it('GIVEN demo with two kept skills THEN /skills lists them with their runs and last error, and /skill show gives one with its code in a block it cannot close', async () => {
    const r = await start();
    r.send('/skills');
    await r.line(/^\[demo\] demo has written no skills yet\.$/);
    await r.core.learned.keep('demo', skill('oak_logs'), "await collect({ item: 'oak_log', count: params.count });\n// ``` not the end\nawait say({ text: 'done \u001b[31m' });\n");
    await r.core.learned.keep('demo', skill('birch_logs', { runs: 1, successes: 1, lastError: null }), 'return 1;');
    r.send('/skills demo');
    await r.line(/^\[demo\] demo keeps 2 skills it wrote \(\/skill show <name> shows one\):$/);
    await r.line(/^\[demo\] - birch_logs — Chop birch logs · 1\/1 runs succeeded$/);
    await r.line(/^\[demo\] - oak_logs — Chop oak logs · 3\/4 runs succeeded · last error \(line 2\): line 2: collect failed: no oak_log near \(no_target\)$/);

    r.send('/skill show oak_logs');
    await r.line(/^\[demo\] params: count \(integer\) · written for: collect 3 oak logs · must leave: collect \{count\} oak logs$/);
    const shown = r.core.outbox.all().at(-1)?.text ?? '';
    expect(shown.split('\n').slice(2)).toEqual([
      '```js',
      "await collect({ item: 'oak_log', count: params.count });",
      '// `\u200b`\u200b` not the end',
      "await say({ text: 'done \u241b[31m' });",
      '```',
    ]);
    r.send('/skill show pine_logs');
    await r.line(/^\[demo\] demo keeps no skill called pine_logs: \/skills demo lists them\.$/);
  });

  it('GIVEN a watcher in the linked group THEN they may list and read demo’s skills but not remove one; its owner removes it', async () => {
    const r = await start();
    await r.core.learned.keep('demo', skill('oak_logs'), 'return 1;');
    r.core.links.link('demo', 'telegram:-100', 'watch');
    await r.core.router.runCommand({ ...watcher(), name: 'skills', argsText: '' });
    await r.core.router.runCommand({ ...watcher(), name: 'skill', argsText: 'show oak_logs' });
    await r.core.router.runCommand({ ...watcher(), name: 'skill', argsText: 'remove oak_logs' });
    const replies = r.core.outbox.pending('telegram').map((p) => p.text);
    expect(replies[0]).toMatch(/^demo keeps 1 skill it wrote/);
    expect(replies[1]).toMatch(/^oak_logs — Chop oak logs/);
    expect(replies[2]).toBe("You can't control demo: ask its owner.");
    expect(await r.core.learned.list('demo')).toHaveLength(1);

    const helpOf = async (): Promise<string[]> => {
      await r.core.router.runCommand({ ...watcher(), name: 'help', argsText: '' });
      return (r.core.outbox.pending('telegram').at(-1)?.text ?? '').split('\n').filter((l) => l.startsWith('/')).map((l) => l.split(' — ')[0] ?? '');
    };
    expect((await helpOf()).filter((l) => l.startsWith('/skill'))).toEqual(['/skills [avatar]', '/skill show <name> [avatar]']);

    r.send('/skill remove oak_logs');
    await r.line(/^\[demo\] Removed the skill oak_logs: demo will not use it again\.$/);
    expect(await readdir(r.core.learned.dir('demo'))).toEqual([]);
    r.send('/skill remove oak_logs');
    await r.line(/^\[demo\] demo keeps no skill called oak_logs: \/skills demo lists them\.$/);
  });

  it('GIVEN bob with a kept skill WHEN he is renamed THEN his skills follow him; WHEN he is removed THEN they go with his files to removed/', async () => {
    const r = await start();
    r.send('/avatar create bob');
    await r.line(/^\[bob\] Created bob on embedded/);
    await r.core.learned.keep('bob', skill('oak_logs'), 'return 1;');
    r.send('/avatar rename bob robert');
    await r.line(/^\[robert\] Renamed bob to robert/);
    r.send('/skills robert');
    await r.line(/^\[robert\] - oak_logs — Chop oak logs · 3\/4 runs succeeded/);
    expect(await r.core.learned.list('bob')).toEqual([]);

    r.send('/avatar remove robert robert');
    await r.line(/^\[mindlink\] Removed robert: /);
    expect(await r.core.learned.list('robert')).toEqual([]);
    const [kept] = await readdir(join(r.dir, 'removed'));
    expect((await readdir(join(r.dir, 'removed', kept ?? '', 'skills'))).sort()).toEqual(['oak_logs.js', 'oak_logs.json']);
  });
});
