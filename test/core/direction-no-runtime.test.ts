/**
 * A direction is stored and written to TASK.md without the avatar's live parts: an avatar whose
 * game cannot be built (its server is not configured) still takes its owner's direction. Real core
 * over the console bridge.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Mindlink } from '../../src/core.ts';
import { newAvatarRecord } from '../../src/store/store.ts';
import { TaskFile } from '../../src/task/task-file.ts';
import { startConsoleCore } from './console-harness.ts';
import { filesOf } from '../../src/store/files.ts';

const dirs: string[] = [];
const running: Mindlink[] = [];

afterEach(async () => {
  for (const c of running.splice(0)) await c.stop();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('a direction for an avatar with no live parts', () => {
  it('GIVEN an avatar whose server is not configured WHEN its owner writes it a direction THEN it is noted and TASK.md has it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mindlink-no-runtime-'));
    dirs.push(dir);
    const r = await startConsoleCore(dir);
    running.push(r.core);
    const owner = r.core.people.personOf('console:local');
    expect(owner).toBeDefined();
    filesOf(r.core.store).state.update((s) => s.avatars.push(newAvatarRecord('ghost', owner?.id ?? '', 'gone', 'scripted', false, new Date())));
    r.send('ghost: stay near the village');
    await r.line(/^\[ghost\] Noted as direction #1\.$/);
    expect(r.core.avatars.get('ghost')?.directions.open.map((d) => d.text)).toEqual(['stay near the village']);
    // The write is queued on the file; waiting for that queue waits for it (no game, engine or loop involved).
    await new TaskFile(r.core.store.avatarFiles.of('ghost'), 'ghost').idle();
    const task = (await r.core.store.avatarFiles.of('ghost').read('TASK.md')) ?? '';
    expect(task).toMatch(/^## Owner direction\n[\s\S]*#1 \(\d{4}-\d{2}-\d{2}\) stay near the village/m);
    expect(r.core.avatars.displayState('ghost')).toBe('stopped');
  });
});
