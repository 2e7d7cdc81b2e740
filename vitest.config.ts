import { defineConfig } from 'vitest/config';
import { HeavyFirstSequencer } from './test/heavy-first.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    // The data files check their writers: frozen data, each update on a copy, so a write outside a record
    // owner's update throws (src/store/json-file.ts).
    env: { STORE_CHECKS: 'on' },
    hookTimeout: 60_000,
    // Game tests start real Minecraft servers and mostly wait on the game (ticks, walking, digging, smelting), so
    // three files at a time keep a 2-core machine busy without starving any of them.
    fileParallelism: true,
    maxWorkers: 3,
    pool: 'forks',
    sequence: { sequencer: HeavyFirstSequencer },
  },
});
