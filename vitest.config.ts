import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Game tests start real Minecraft servers; on a 2-core machine run files one or two at a time.
    fileParallelism: true,
    maxWorkers: 2,
    pool: 'forks',
  },
});
