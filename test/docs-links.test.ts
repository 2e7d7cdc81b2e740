/**
 * The docs hold together: every relative link and image in README.md and docs/ points at a file of the repo, and
 * every `#anchor` at a heading of its target, slugged as GitHub slugs them (github-slugger: lower case, spaces to
 * `-`, punctuation but `-` and `_` dropped, a repeated heading gets `-1`, `-2`…). Code comments that point at the
 * docs (`README "Talking to an avatar"`, `docs/commands.md "Who may do what"`, `docs/goal-loop.md`) point at a
 * file and a heading that are there. Links to other sites are never fetched. A small tree in a temp dir shows
 * that each kind of broken link is caught.
 */
import { readdir, readFile, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { marked, type Token } from 'marked';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The text a reader sees of inline tokens (code spans' code, links' text, no tags), as GitHub slugs it. */
function plainText(tokens: Token[]): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
  return tokens
    .map((t): string => {
      if (t.type === 'html') return '';
      if ('tokens' in t && Array.isArray(t.tokens)) return plainText(t.tokens as Token[]);
      return 'text' in t && typeof t.text === 'string' ? t.text.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => entities[e] ?? '') : '';
    })
    .join('');
}

/** One Markdown file read: its headings' plain text and GitHub anchors, and the targets of its links and images. */
interface Page {
  headings: string[];
  anchors: Set<string>;
  targets: string[];
}

function readPage(markdown: string): Page {
  const slugger = new GithubSlugger();
  const page: Page = { headings: [], anchors: new Set(), targets: [] };
  marked.walkTokens(marked.lexer(markdown), (t) => {
    if (t.type === 'heading') {
      const text = plainText(t.tokens ?? []);
      page.headings.push(text);
      page.anchors.add(slugger.slug(text));
    } else if (t.type === 'link' || t.type === 'image') {
      page.targets.push(t.href);
    } else if (t.type === 'html') {
      for (const m of t.raw.matchAll(/\b(?:src|href)\s*=\s*"([^"]*)"/g)) if (m[1] !== undefined) page.targets.push(m[1]);
    }
  });
  return page;
}

/** README.md and every Markdown file under docs/, relative to `root`. */
async function docFiles(root: string): Promise<string[]> {
  const docs = (await readdir(join(root, 'docs'), { recursive: true })).filter((f) => f.endsWith('.md')).map((f) => join('docs', f));
  return ['README.md', ...docs.sort()];
}

async function isThere(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return false;
      throw err;
    },
  );
}

/** Every relative link of `files` (relative to `root`) checked: how many, and the broken ones in words. */
async function checkLinks(root: string, files: string[]): Promise<{ checked: number; broken: string[] }> {
  const pages = new Map<string, Page>();
  const pageOf = async (file: string): Promise<Page> => {
    let page = pages.get(file);
    if (!page) pages.set(file, (page = readPage(await readFile(file, 'utf8'))));
    return page;
  };
  let checked = 0;
  const broken: string[] = [];
  for (const file of files) {
    for (const target of (await pageOf(join(root, file))).targets) {
      if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(target)) continue;
      checked += 1;
      const hash = target.indexOf('#');
      const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const to = path === '' ? join(root, file) : path.startsWith('/') ? join(root, path) : resolve(root, dirname(file), path);
      const name = relative(root, to);
      if (name.startsWith(`..${sep}`) || name === '..') broken.push(`${file}: ${target}: outside the repository`);
      else if (!(await isThere(to))) broken.push(`${file}: ${target}: no file ${name}`);
      else if (anchor !== undefined && !to.endsWith('.md')) broken.push(`${file}: ${target}: an anchor into ${name}, which has no headings`);
      else if (anchor !== undefined && !(await pageOf(to)).anchors.has(anchor)) broken.push(`${file}: ${target}: no heading of ${name} has the anchor #${anchor}`);
    }
  }
  return { checked, broken };
}

/** The source files whose comments may point at the docs, relative to `root` (not this file: its planted pointers are broken on purpose). */
async function sourceFiles(root: string): Promise<string[]> {
  const dirs = ['src', 'bridges', 'commands', 'skills', 'test', 'bench', 'chaos'];
  const found = await Promise.all(
    dirs.map(async (d) => ((await isThere(join(root, d))) ? (await readdir(join(root, d), { recursive: true })).map((f) => join(d, f)) : [])),
  );
  const self = relative(root, fileURLToPath(import.meta.url));
  return [...found.flat().filter((f) => /\.(ts|cjs|js)$/.test(f) && f !== self), ...((await isThere(join(root, '.dependency-cruiser.cjs'))) ? ['.dependency-cruiser.cjs'] : [])].sort();
}

/**
 * Every pointer at the docs in `files`: `README` or `docs/<name>.md`, maybe followed by a quoted heading (the
 * start of one, as `README "Goals the avatar understands"`) or an `#anchor`; the broken ones in words.
 */
async function checkPointers(root: string, files: string[]): Promise<{ checked: number; broken: string[] }> {
  let checked = 0;
  const broken: string[] = [];
  for (const file of files) {
    const text = await readFile(join(root, file), 'utf8');
    for (const m of text.matchAll(/\b(README(?:\.md)?|docs\/[\w./-]*\.md)(?:#([\w-]+)| "([^"\n]+)")?/g)) {
      checked += 1;
      const doc = m[1] === 'README' ? 'README.md' : (m[1] ?? '');
      const line = text.slice(0, m.index).split('\n').length;
      if (!(await isThere(join(root, doc)))) {
        broken.push(`${file}:${line}: ${m[0]}: no file ${doc}`);
        continue;
      }
      const page = readPage(await readFile(join(root, doc), 'utf8'));
      if (m[2] !== undefined && !page.anchors.has(m[2])) broken.push(`${file}:${line}: ${m[0]}: no heading of ${doc} has the anchor #${m[2]}`);
      const heading = m[3];
      const starts = (h: string, start: string): boolean => h.startsWith(start) && !/\w/.test(h.charAt(start.length));
      if (heading !== undefined && !page.headings.some((h) => starts(h, heading))) broken.push(`${file}:${line}: ${m[0]}: no heading of ${doc} starts "${heading}"`);
    }
  }
  return { checked, broken };
}

describe('the docs', () => {
  it('GIVEN README.md and docs/ THEN every relative link and image names a file of the repo and every #anchor a heading of it', async () => {
    const files = await docFiles(ROOT);
    expect(files.length).toBeGreaterThan(10);
    const { checked, broken } = await checkLinks(ROOT, files);
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });

  it('GIVEN docs/ THEN the README links to every page of it', async () => {
    const linked = new Set(readPage(await readFile(join(ROOT, 'README.md'), 'utf8')).targets.map((t) => t.split('#')[0]));
    const pages = (await docFiles(ROOT)).slice(1);
    expect(pages.filter((p) => !linked.has(p.split(sep).join('/')))).toEqual([]);
  });

  it('GIVEN the README THEN a newcomer reads it in five minutes: at most 300 lines, and the Quickstart gives the two commands', async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    const quickstart = readme.slice(readme.indexOf('## Quickstart'), readme.indexOf('\n## ', readme.indexOf('## Quickstart') + 1));
    expect(quickstart).toContain('npm ci && npm start');
    expect(quickstart).toContain('npm ci && npm test');
  });

  it('GIVEN the code THEN every comment that points at the README or docs/ names a file and a heading that are there', async () => {
    const { checked, broken } = await checkPointers(ROOT, await sourceFiles(ROOT));
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  describe('GIVEN a tree with one broken link, anchor and pointer of each kind', () => {
    let dir = '';
    afterAll(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('THEN each is reported, and the good ones, code, and links to other sites are not', async () => {
      dir = await mkdtemp(join(tmpdir(), 'mindlink-docs-'));
      const files: Record<string, string> = {
        'README.md': [
          '# Tree',
          '',
          '[good](docs/a.md) [good anchor](docs/a.md#whats-here-npm-start) [repeat](docs/a.md#notes-1) [self](#tree)',
          '[missing file](docs/gone.md) [broken anchor](docs/a.md#nowhere) [third repeat](docs/a.md#notes-2)',
          '[escapes](../outside.md) [anchor into an image](docs/pic.png#top) [own anchor](#no-such)',
          '',
          '`[in code](docs/gone.md)` and [another site](https://example.invalid/x#y) and <mailto:a@example.invalid>',
          '',
          '```md',
          '[fenced](docs/gone.md)',
          '```',
          '',
          '<p><img src="docs/pic.png" alt="good"> <img src="docs/nope.png" alt="broken"></p>',
        ].join('\n'),
        'docs/a.md': "# What's here: `npm start`!\n\n## Notes\n\ntext\n\n## Notes\n\n[back](../README.md#tree) [sideways](b.md)\n",
        'docs/pic.png': 'png',
        'src/x.ts': [
          '/** Good: (README "Tree"), (docs/a.md "Notes"), (docs/a.md#notes-1), (docs/a.md). */',
          '/** Broken: (README "Forest"), (docs/gone.md), (docs/a.md#nowhere), (docs/a.md "Not"). */',
          '',
        ].join('\n'),
      };
      for (const [path, text] of Object.entries(files)) {
        await mkdir(dirname(join(dir, path)), { recursive: true });
        await writeFile(join(dir, path), text);
      }
      const links = await checkLinks(dir, await docFiles(dir));
      expect(links.broken).toEqual([
        'README.md: docs/gone.md: no file docs/gone.md',
        'README.md: docs/a.md#nowhere: no heading of docs/a.md has the anchor #nowhere',
        'README.md: docs/a.md#notes-2: no heading of docs/a.md has the anchor #notes-2',
        'README.md: ../outside.md: outside the repository',
        'README.md: docs/pic.png#top: an anchor into docs/pic.png, which has no headings',
        'README.md: #no-such: no heading of README.md has the anchor #no-such',
        'README.md: docs/nope.png: no file docs/nope.png',
        'docs/a.md: b.md: no file docs/b.md',
      ]);
      expect(links.checked).toBe(14);
      const pointers = await checkPointers(dir, await sourceFiles(dir));
      expect(pointers.broken).toEqual([
        'src/x.ts:2: README "Forest": no heading of README.md starts "Forest"',
        'src/x.ts:2: docs/gone.md: no file docs/gone.md',
        'src/x.ts:2: docs/a.md#nowhere: no heading of docs/a.md has the anchor #nowhere',
        'src/x.ts:2: docs/a.md "Not": no heading of docs/a.md starts "Not"',
      ]);
    });
  });
});
