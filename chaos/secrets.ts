/**
 * After every other scenario: no token or API key appears in any stdout,
 * stderr, file under a DATA_DIR or post, and every data file is readable by
 * its owner only. The avatars' account files (`accounts/<avatar>.microsoft.json`,
 * the Microsoft sign-in tokens; `accounts/<avatar>.passwords.json`, login-plugin
 * passwords) are where those secrets belong: what they hold is looked for
 * everywhere else.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { evidence } from './harness.ts';

/** The figures of the secrets check. */
export interface SecretFigures {
  secrets: number;
  /** Places (a stream, a file, a post) where a secret was found. */
  leaks: number;
  filesChecked: number;
  /** Account files (Microsoft token caches, login-plugin passwords) whose secrets were looked for elsewhere. */
  accountFiles: number;
  /** Files or directories under a DATA_DIR that others than the owner may read or write. */
  openFiles: number;
  examples: string[];
}

function walk(dir: string, out: string[]): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    // A directory a scenario removed: nothing left to check there.
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    out.push(p);
    if (e.isDirectory()) walk(p, out);
  }
}

/** An avatar's account file: its Microsoft tokens or its login-plugin passwords. */
const ACCOUNT_FILE = /[\\/]accounts[\\/][^\\/]+\.(microsoft|passwords)\.json$/;

/** The secrets an account file holds: every string under a key naming a token, or (passwords) every value. */
function accountSecrets(file: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // A file cut short by a kill: nothing to read from it.
    return [];
  }
  const passwords = file.endsWith('.passwords.json');
  const out: string[] = [];
  const visit = (value: unknown, key: string): void => {
    if (typeof value === 'string') {
      if (passwords || /token|ticket/i.test(key)) out.push(value);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) visit(v, k);
    }
  };
  visit(parsed, '');
  return out;
}

/** Check what the scenarios left behind. */
export function checkSecrets(): SecretFigures {
  const all: string[] = [];
  for (const dir of evidence.dirs) walk(dir, all);
  const accounts = all.filter((f) => ACCOUNT_FILE.test(f));
  const secrets = [...new Set([...evidence.secrets, ...accounts.flatMap(accountSecrets)])].filter((s) => s.length >= 8);
  const fig: SecretFigures = { secrets: secrets.length, leaks: 0, filesChecked: 0, accountFiles: accounts.length, openFiles: 0, examples: [] };
  const note = (what: string): void => {
    if (fig.examples.length < 10) fig.examples.push(what);
  };
  const scan = (where: string, text: string): void => {
    for (const s of secrets) {
      // The token's secret half alone is a leak too (e.g. a URL that shows only part of it).
      const half = s.includes(':') ? s.slice(s.indexOf(':') + 1) : s;
      if (text.includes(s) || text.includes(half)) {
        fig.leaks += 1;
        note(`a secret in ${where}`);
      }
    }
  };
  evidence.procs.forEach((p, i) => {
    scan(`stdout of run ${i + 1}`, p.stdout.join('\n'));
    scan(`stderr of run ${i + 1}`, p.stderr.join('\n'));
  });
  evidence.fakes.forEach((tg, i) => {
    for (const m of tg.sent) scan(`a post to Telegram fake ${i + 1}`, m.text);
  });
  for (const dir of evidence.dirs) {
    const files: string[] = [];
    walk(dir, files);
    for (const f of files) {
      let st;
      try {
        st = statSync(f);
      } catch {
        // Removed since the walk (a temp file renamed into place): not there to leak.
        continue;
      }
      if ((st.mode & 0o077) !== 0) {
        fig.openFiles += 1;
        note(`mode ${(st.mode & 0o777).toString(8)}: ${f}`);
      }
      if (!st.isFile() || ACCOUNT_FILE.test(f)) continue;
      fig.filesChecked += 1;
      if (st.size > 20 * 1024 * 1024) continue;
      scan(f, readFileSync(f).toString('latin1'));
    }
  }
  return fig;
}
