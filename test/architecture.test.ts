/**
 * The import rules of `.dependency-cruiser.cjs` (README "Architecture"), run
 * by dependency-cruiser over the repo: a forbidden import fails `npm test`.
 * A small tree in a temp dir shows that each rule does catch what it forbids.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as IConfiguration;

/** Violations as `rule: from → to`. */
async function violations(baseDir: string, dirs: string[]): Promise<string[]> {
  const options: ICruiseOptions = { ...config.options, baseDir, validate: true, ruleSet: { forbidden: config.forbidden ?? [] } };
  const { output } = await cruise(dirs, options);
  const result = output as ICruiseResult;
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
}

describe('import rules', () => {
  it('GIVEN the repo THEN no module breaks an import rule', async () => {
    expect(await violations(ROOT, ['src', 'bridges', 'commands', 'skills'])).toEqual([]);
  });

  describe('GIVEN a tree with one forbidden import per rule', () => {
    let dir = '';
    afterAll(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('THEN each is reported, and the entry point src/main.ts may wire everything, an embedded-world plugin require its neighbours and JSON', async () => {
      dir = await mkdtemp(join(tmpdir(), 'mindlink-rules-'));
      const files: Record<string, string> = {
        'src/main.ts': "import '../bridges/b.ts';\nimport '../commands/c.ts';\nimport '../skills/s.ts';\n",
        'src/core.ts': "import type { B } from '../bridges/b.ts';\nexport type C = B;\n",
        'src/game/game.ts': "import '../core.ts';\n",
        'src/engines/engine.ts': "import '../people/people.ts';\n",
        'src/people/people.ts': 'export const p = 1;\n',
        'src/chat.ts': 'export const chat = 1;\n',
        'bridges/b.ts': "import '../commands/c.ts';\nimport '../src/chat.ts';\nexport type B = string;\n",
        'commands/c.ts': "import '../bridges/b.ts';\n",
        'skills/s.ts': "import '../src/chat.ts';\nimport '../src/game/game.ts';\n",
        'src/game/embedded/plugin.cjs': "require('../game.ts');\nrequire('./other.cjs');\nrequire('../data.json');\n",
        'src/game/embedded/other.cjs': 'module.exports = {};\n',
        'src/game/data.json': '{}\n',
        'src/game/provider.ts': "import './embedded/other.cjs';\n",
      };
      for (const [path, text] of Object.entries(files)) {
        await mkdir(join(dir, dirname(path)), { recursive: true });
        await writeFile(join(dir, path), text);
      }
      expect((await violations(dir, ['src', 'bridges', 'commands', 'skills'])).sort()).toEqual([
        'bridges-only-src: bridges/b.ts → commands/c.ts',
        'commands-not-bridges: commands/c.ts → bridges/b.ts',
        'embedded-child-plain-commonjs: src/game/embedded/plugin.cjs → src/game/game.ts',
        'embedded-world-through-its-host: src/game/provider.ts → src/game/embedded/other.cjs',
        'game-and-engines-not-core: src/engines/engine.ts → src/people/people.ts',
        'game-and-engines-not-core: src/game/game.ts → src/core.ts',
        'skills-only-game: skills/s.ts → src/chat.ts',
        'src-not-outward: src/core.ts → bridges/b.ts',
      ]);
    });
  });
});
