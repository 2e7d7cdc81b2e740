/**
 * `mindlink migrate --from-files DATA_DIR` (`npm start -- migrate --from-files DATA_DIR`): moves a data folder of
 * the lowdb store into the PostgreSQL store at `DATABASE_URL`, once (`src/store/pg/from-files.ts`,
 * docs/many-machines.md). It prints what it moved; the folder is left as it was. Exit codes: 0 moved, 1 refused
 * or failed (nothing written), 2 bad arguments or no `DATABASE_URL`.
 */
import { resolve } from 'node:path';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/connect.ts';
import { shownUrl } from './db/url-secrets.ts';
import { urlSecrets } from './db/url-secrets.ts';
import { createLogger, registerSecret } from './logger.ts';
import { MigrateRefusedError, migrateFromFiles, type MigrationReport } from './store/pg/from-files.ts';

const USAGE = 'usage: mindlink migrate --from-files DATA_DIR (with DATABASE_URL set to the database to move it into)';

/** The report as lines: each file's records by table, the avatars' files. */
export function reportLines(dir: string, db: string, r: MigrationReport): string[] {
  const lines = [`mindlink migrate: moved ${dir} into ${db}`];
  for (const f of r.files) {
    if (!f.present) {
      lines.push(`  ${f.file}: not in the folder (it starts empty)`);
      continue;
    }
    const tables = [...f.tables].map(([t, n]) => `${n} ${t.replace(/_/g, ' ')}`).join(', ');
    lines.push(`  ${f.file}: ${tables || 'no records'}`);
    for (const q of f.setAside) lines.push(`    left out, kept in store_quarantine: ${q.record} (${q.reason})`);
  }
  const kb = (r.avatarFiles.bytes / 1024).toFixed(1);
  lines.push(`  the avatars' own files: ${r.avatarFiles.files} files (${kb} KB) of ${r.avatarFiles.avatars} avatars and ${r.removed} removed avatars`);
  lines.push(`The files in ${dir} are left as they were. Start mindlink with DATABASE_URL set to use the database.`);
  return lines;
}

/**
 * Run the command with its arguments (those after `migrate`); resolves with the exit code.
 *
 * @example
 * process.exit(await migrateCommand(['--from-files', 'data']));
 */
export async function migrateCommand(args: readonly string[]): Promise<number> {
  const fail = (code: number, line: string): number => {
    process.stderr.write(`${line}\n`);
    return code;
  };
  if (args.length !== 2 || args[0] !== '--from-files' || !args[1]) return fail(2, USAGE);
  const dir = resolve(args[1]);
  let url: string | undefined;
  let level = 'info';
  try {
    const config = loadConfig();
    url = config.DATABASE_URL;
    level = config.LOG_LEVEL;
  } catch (err) {
    return fail(2, (err as Error).message);
  }
  if (!url) return fail(2, `mindlink migrate: DATABASE_URL is not set. ${USAGE}`);
  for (const secret of urlSecrets(url)) registerSecret(secret);
  const db = openDatabase(url, createLogger(level), { max: 2, name: 'mindlink-migrate' });
  try {
    const report = await migrateFromFiles(db, dir);
    process.stdout.write(`${reportLines(dir, shownUrl(url), report).join('\n')}\n`);
    return 0;
  } catch (err) {
    if (err instanceof MigrateRefusedError) return fail(1, `mindlink migrate: ${err.message}.`);
    return fail(1, `mindlink migrate: failed, nothing was moved: ${(err as Error).message}`);
  } finally {
    await db.end();
  }
}
