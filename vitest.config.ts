import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The journeys (test/journeys) start the real bot and mostly wait on it; they are the longest files, so they go
 * first: otherwise a fresh CI run, with no timings cached, orders files by size and leaves them (small files
 * over a large harness) for last, as the run's long tail.
 */
class JourneysFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const journey = (file: TestSpecification) => file.moduleId.includes('/test/journeys/');
    return [...sorted.filter(journey), ...sorted.filter((file) => !journey(file))];
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One directory per run for what files share across workers (the compiled app, built once).
    globalSetup: ['test/support/test-run.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Tests start real servers on 127.0.0.1; keep a modest parallelism for 2-core CI machines.
    pool: 'forks',
    maxWorkers: 2,
    // A worker runs file after file in one process and imports each module once: with a fresh process per file,
    // importing the sources and their libraries again (discord.js, Bolt, canvas...) was the largest share of the
    // suite's CPU (test/discord + test/core: 80 s of CPU isolated, 23 s not). Safe here because no test replaces a
    // module, fakes the global timers or changes process.env: clocks, stores and URLs are injected, and every
    // file closes the servers and children it starts.
    isolate: false,
    sequence: { sequencer: JourneysFirst },
  },
});
