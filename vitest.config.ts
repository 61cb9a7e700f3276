import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Tests start real servers on 127.0.0.1; keep a modest parallelism for 2-core CI machines.
    pool: 'forks',
    maxWorkers: 2,
  },
});
