import { defineConfig } from 'vitest/config';
import { HeavyFirstSequencer } from './test/heavy-first.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Game tests start real Minecraft servers and mostly wait on the game (ticks, walking, digging, smelting), so
    // three files at a time keep a 2-core machine busy without starving any of them.
    fileParallelism: true,
    maxWorkers: 3,
    pool: 'forks',
    sequence: { sequencer: HeavyFirstSequencer },
  },
});
