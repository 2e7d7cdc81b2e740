/**
 * Avatars collecting side by side: the real mindlink process on the embedded
 * world, 20 avatars each given `/goal collect 6 oak logs` at once from the
 * console. Prints how many are done within 150 s and how many digs "gave
 * nothing" (two avatars on one log). Asserts nothing.
 */
import { removeEvidence, startProcess, stopGracefully, tempDir, until } from '../chaos/harness.ts';

const AVATARS = 20;
const WINDOW_MS = 150_000;

export default async function crowd(): Promise<void> {
  const dir = await tempDir('crowd');
  const proc = startProcess({ DATA_DIR: dir });
  try {
    await proc.line(/^\[mindlink\] ready/, 90_000);
    const names = ['demo', ...Array.from({ length: AVATARS - 1 }, (_, i) => `crowd${i + 1}`)];
    for (const name of names.slice(1)) {
      proc.send(`/avatar create ${name}`);
      proc.send(`/play ${name}`);
    }
    await until(() => proc.stderr.filter((l) => l.includes('"msg":"spawned"')).length >= AVATARS, `${AVATARS} avatars to spawn`, 300_000, 200);
    const from = { out: proc.stdout.length, err: proc.stderr.length };
    const t0 = performance.now();
    for (const name of names) proc.send(`/goal collect 6 oak logs ${name}`);
    const done = (): number => proc.stdout.slice(from.out).filter((l) => /Done: collect 6 oak logs/.test(l)).length;
    await until(() => done() >= AVATARS || performance.now() - t0 > WINDOW_MS, 'the goals', WINDOW_MS + 10_000, 500);
    const took = (performance.now() - t0) / 1000;
    const text = [...proc.stdout.slice(from.out), ...proc.stderr.slice(from.err)].join('\n');
    const nothing = (text.match(/gave me nothing/g) ?? []).length;
    process.stdout.write(`${AVATARS} avatars, "collect 6 oak logs" each at once: ${done()} done in ${took.toFixed(0)} s; digs that gave nothing: ${nothing}\n`);
  } finally {
    await stopGracefully(proc);
    await removeEvidence();
  }
}
