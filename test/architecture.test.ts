/**
 * The import rules of `.dependency-cruiser.cjs` (docs/architecture.md), run
 * by dependency-cruiser over the repo: a forbidden import fails `npm test`.
 * A small tree in a temp dir shows that each rule does catch what it forbids.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as IConfiguration;

/** A part of the Architecture diagram (docs/architecture.md): its id and the paths it stands for (a folder ends in `/`). */
interface Part {
  id: string;
  paths: string[];
}

/**
 * The parts and arrows of the mermaid diagram under "# Architecture": a node `id["paths: what"]`
 * (paths before the first `:` or ` (`, comma-separated; inside `subgraph src` relative to `src/`)
 * and an arrow `a --> b`.
 */
function diagram(page: string): { parts: Part[]; arrows: [string, string][] } {
  const block = /^# Architecture\n[\s\S]*?```mermaid\n([\s\S]*?)```/m.exec(page)?.[1] ?? '';
  const parts: Part[] = [];
  const arrows: [string, string][] = [];
  let inSrc = false;
  for (const line of block.split('\n').map((l) => l.trim())) {
    if (/^subgraph src\b/.test(line)) inSrc = true;
    else if (line === 'end') inSrc = false;
    const node = /^(\w+)\["([^"]+)"\]$/.exec(line);
    if (node?.[1] && node[2] && !line.startsWith('subgraph')) {
      const head = node[2].split(/:| \(/)[0] ?? '';
      parts.push({ id: node[1], paths: head.split(',').map((p) => (inSrc ? `src/${p.trim()}` : p.trim())) });
    }
    const arrow = /^(\w+) --> (\w+)$/.exec(line);
    if (arrow?.[1] && arrow[2]) arrows.push([arrow[1], arrow[2]]);
  }
  return { parts, arrows };
}

/** Every import between the repo's modules, as `from → to`. */
async function imports(): Promise<[string, string][]> {
  const { output } = await cruise(['src', 'bridges', 'commands', 'skills'], { ...config.options, baseDir: ROOT });
  return (output as ICruiseResult).modules.flatMap((m) => m.dependencies.map((d): [string, string] => [m.source, d.resolved]));
}

/** Violations as `rule: from → to`. */
async function violations(baseDir: string, dirs: string[]): Promise<string[]> {
  const options: ICruiseOptions = { ...config.options, baseDir, validate: true, ruleSet: { forbidden: config.forbidden ?? [] } };
  const { output } = await cruise(dirs, options);
  const result = output as ICruiseResult;
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
}

/** The record owner rules of `.dependency-cruiser.cjs`: kind → owner module. */
function recordOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const rule of config.forbidden ?? []) {
    const kind = /^record-owner-(.+)$/.exec(rule.name ?? '')?.[1];
    const owner = (rule.from as { pathNot?: string }).pathNot;
    if (kind && owner) owners.set(kind, owner.replace(/^\^|\$$/g, '').replace(/\\\./g, '.'));
  }
  return owners;
}

describe('record owners', () => {
  it('GIVEN the record writers of src/store/writers THEN each kind has one owner rule, and its owner is the one module that imports it', async () => {
    const writers = readdirSync(join(ROOT, 'src', 'store', 'writers')).map((f) => f.replace(/\.ts$/, '')).sort();
    const owners = recordOwners();
    expect([...owners.keys()].sort()).toEqual(writers);
    const edges = await imports();
    for (const kind of writers) {
      const importers = [...new Set(edges.filter(([, to]) => to === `src/store/writers/${kind}.ts`).map(([from]) => from))];
      expect([kind, importers]).toEqual([kind, [owners.get(kind)]]);
    }
  });

  it('GIVEN the diagram of docs/architecture.md THEN every record owner is in a part drawn with an arrow to the writers', () => {
    const { parts, arrows } = diagram(readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8'));
    const writers = parts.find((p) => p.paths.includes('src/store/writers/'));
    expect(writers?.id).toBeDefined();
    const drawn = parts.filter((p) => arrows.some(([a, b]) => a === p.id && b === writers?.id));
    const inPart = (file: string, part: Part): boolean => part.paths.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p));
    const undrawn = [...recordOwners()].filter(([, owner]) => !drawn.some((p) => inPart(owner, p))).map(([kind, owner]) => `${kind}: ${owner}`);
    expect(undrawn).toEqual([]);
  });
});

describe('import rules', () => {
  it('GIVEN the repo THEN no module breaks an import rule', async () => {
    expect(await violations(ROOT, ['src', 'bridges', 'commands', 'skills'])).toEqual([]);
  });

  it('GIVEN the diagram of docs/architecture.md THEN each part names files that exist and each arrow is an import in the code', async () => {
    const { parts, arrows } = diagram(readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8'));
    expect(parts.length).toBeGreaterThan(10);
    expect(arrows.length).toBeGreaterThan(10);
    const edges = await imports();
    const modules = new Set(edges.flat());
    const inPart = (file: string, part: Part): boolean => part.paths.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p));
    const partOf = (id: string): Part => {
      const part = parts.find((p) => p.id === id);
      if (!part) throw new Error(`the diagram draws an arrow from or to "${id}", which it does not name`);
      return part;
    };
    const missing = parts.flatMap((part) => part.paths.filter((p) => ![...modules].some((m) => inPart(m, { id: part.id, paths: [p] }))).map((p) => `${part.id}: ${p}`));
    expect(missing).toEqual([]);
    const unreal = arrows.filter(([a, b]) => !edges.some(([from, to]) => inPart(from, partOf(a)) && inPart(to, partOf(b)))).map(([a, b]) => `${a} --> ${b}`);
    expect(unreal).toEqual([]);
  });

  describe('GIVEN a tree with one forbidden import per rule', () => {
    let dir = '';
    afterAll(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('THEN each is reported (the pi extension reaching mindlink too; a record written by another module than its owner; the loop reaching the Store), and the entry point src/main.ts may wire everything, a command may use its host, an embedded-world plugin its neighbours, the protocol shims and JSON, a protocol shim another, and a record owner its writer', async () => {
      dir = await mkdtemp(join(tmpdir(), 'mindlink-rules-'));
      const files: Record<string, string> = {
        'src/main.ts': "import '../bridges/b.ts';\nimport '../commands/c.ts';\nimport '../skills/s.ts';\n",
        'src/core.ts': "import type { B } from '../bridges/b.ts';\nexport type C = B;\n",
        'src/game/game.ts': "import '../core.ts';\n",
        'src/engines/engine.ts': "import '../people/people.ts';\n",
        'src/engines/llm/llm-engine.ts': "import '../../loop/goal-loop.ts';\n",
        'src/task/task-file.ts': "import '../loop/goal-loop.ts';\n",
        'src/loop/goal-loop.ts': 'export const loop = 1;\n',
        'src/people/people.ts': 'export const p = 1;\n',
        'src/chat.ts': 'export const chat = 1;\n',
        'src/command-host.ts': 'export const host = 1;\n',
        'src/schedule/digests.ts': "import type { S } from './scheduler.ts';\nexport type D = S;\n",
        'src/schedule/scheduler.ts': "import type { D } from './digests.ts';\nexport type S = D;\n",
        'bridges/b.ts': "import '../commands/c.ts';\nimport '../src/chat.ts';\nexport type B = string;\n",
        'commands/c.ts': "import '../src/command-host.ts';\nimport '../src/loop/goal-loop.ts';\n",
        'commands/d.ts': "import '../bridges/b.ts';\n",
        'skills/s.ts': "import '../src/chat.ts';\nimport '../src/game/game.ts';\n",
        'src/game/embedded/plugin.cjs': "require('../game.ts');\nrequire('./other.cjs');\nrequire('../data.json');\nrequire('../shim.cjs');\n",
        'src/game/shim.cjs': "require('./skill.ts');\nrequire('./other-shim.cjs');\n",
        'src/game/other-shim.cjs': 'module.exports = {};\n',
        'src/game/embedded/other.cjs': 'module.exports = {};\n',
        'src/game/data.json': '{}\n',
        'src/game/provider.ts': "import './embedded/other.cjs';\n",
        'src/game/sandbox/worker.cjs': "require('../skill.ts');\n",
        'src/game/skill.ts': 'export const skill = 1;\n',
        'src/engines/agents/pi-extension.ts': "import '../engine.ts';\n",
        'src/store/store.ts': "import './files.ts';\nimport './record-writer.ts';\n",
        'src/store/files.ts': 'export const files = 1;\n',
        'src/store/record-writer.ts': "import './files.ts';\n",
        'src/store/writers/links.ts': "import '../record-writer.ts';\n",
        'src/store/writers/avatars.ts': "import '../record-writer.ts';\n",
        'src/people/links.ts': "import '../store/writers/links.ts';\n",
        'src/sharing.ts': "import './store/writers/links.ts';\n",
        'src/avatars/avatar-records.ts': "import '../store/writers/avatars.ts';\n",
        'src/avatars/manager.ts': "import '../store/writers/avatars.ts';\nimport './avatar-records.ts';\n",
        'src/router.ts': "import './store/files.ts';\nimport './store/store.ts';\n",
        'src/loop/turn.ts': "import '../store/store.ts';\nimport '../store/schema.ts';\n",
        'src/store/schema.ts': 'export const schema = 1;\n',
      };
      for (const [path, text] of Object.entries(files)) {
        await mkdir(join(dir, dirname(path)), { recursive: true });
        await writeFile(join(dir, path), text);
      }
      expect((await violations(dir, ['src', 'bridges', 'commands', 'skills'])).sort()).toEqual([
        'below-the-loop: src/engines/llm/llm-engine.ts → src/loop/goal-loop.ts',
        'below-the-loop: src/task/task-file.ts → src/loop/goal-loop.ts',
        'bridges-only-src: bridges/b.ts → commands/c.ts',
        'commands-not-bridges: commands/d.ts → bridges/b.ts',
        'commands-through-host: commands/c.ts → src/loop/goal-loop.ts',
        'embedded-child-plain-commonjs: src/game/embedded/plugin.cjs → src/game/game.ts',
        'embedded-world-through-its-host: src/game/provider.ts → src/game/embedded/other.cjs',
        'game-and-engines-not-core: src/engines/engine.ts → src/people/people.ts',
        'game-and-engines-not-core: src/game/game.ts → src/core.ts',
        'loop-behind-its-port: src/loop/turn.ts → src/store/store.ts',
        'no-circular: src/schedule/digests.ts → src/schedule/scheduler.ts',
        'pi-extension-alone: src/engines/agents/pi-extension.ts → src/engines/engine.ts',
        'protocol-shims-plain-commonjs: src/game/shim.cjs → src/game/skill.ts',
        'record-owner-avatars: src/avatars/manager.ts → src/store/writers/avatars.ts',
        'record-owner-links: src/sharing.ts → src/store/writers/links.ts',
        'script-worker-plain-commonjs: src/game/sandbox/worker.cjs → src/game/skill.ts',
        'skills-only-game: skills/s.ts → src/chat.ts',
        'src-not-outward: src/core.ts → bridges/b.ts',
        'store-files-inside-store: src/router.ts → src/store/files.ts',
      ]);
    });
  });
});
