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

    it('THEN each is reported, and the entry point src/main.ts may wire everything and a command may use its host', async () => {
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
        'game-and-engines-not-core: src/engines/engine.ts → src/people/people.ts',
        'game-and-engines-not-core: src/game/game.ts → src/core.ts',
        'no-circular: src/schedule/digests.ts → src/schedule/scheduler.ts',
        'skills-only-game: skills/s.ts → src/chat.ts',
        'src-not-outward: src/core.ts → bridges/b.ts',
      ]);
    });
  });
});
