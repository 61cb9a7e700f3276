import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Workers for the journeys (test/journeys), which start the real bot and mostly wait on its clock (a minute
 * boundary, a backoff, a late answer), and for the module tests, which mostly use the CPU. Measured on the idle
 * 2-core machine (2026-11-29): two workers in all kept the CPU 28 % busy for 18 minutes, the journeys one after
 * the other; the journeys in three lanes beside two lanes of module tests took 7 min 53 s (294 files), in four
 * lanes 7 min 35 s (300 files, 760 s of CPU: the cores 84 % busy). More lanes start more bots at once (each tsx
 * start takes seconds of CPU), which the tests' start-up deadlines feel first.
 */
const lanes = { journeys: 4, modules: 2 } as const;

/**
 * Seconds a file takes in the whole suite on the idle machine (the clean-clone CI run of 2026-11-29 17:09 UTC; the
 * roll-call and Discord files' estimated after their shorter leads to the minute they wait for), for the files that
 * take long: the order of a fresh checkout (CI), which has no timings of its own yet. A file not named: vitest's own
 * timing of its last run, else a minute for a journey and a second for a module test. Only the order depends on them.
 */
const measuredSeconds: Readonly<Record<string, number>> = {
  'test/journeys/chaos-seeds.test.ts': 130,
  // Seeds 3 and 9 side by side: 160 and 146 s in the clean-clone run of 18:46 UTC (one after the other then, 306 s),
  // up to a minute of each waiting for its pinned batch minute.
  'test/journeys/chaos-seeds-once-failed.test.ts': 165,
  'test/journeys/roll-call.test.ts': 150,
  'test/journeys/pace-alert.test.ts': 200,
  'test/journeys/compiled-entry.test.ts': 136,
  'test/journeys/key-recovery.test.ts': 110,
  'test/journeys/discord-http.test.ts': 130,
  'test/journeys/slack-socket-mode.test.ts': 108,
  'test/journeys/feed-health.test.ts': 89,
  'test/journeys/discord-gateway.test.ts': 107,
  'test/journeys/hosted-replicas.test.ts': 34,
  'test/journeys/operator.test.ts': 28,
  'test/journeys/hosted-slack.test.ts': 19,
  'test/journeys/console-demo.test.ts': 23,
  'test/journeys/reward-dm-watch.test.ts': 20,
  'test/journeys/delivery-trace.test.ts': 25,
  'test/app/discord-files.test.ts': 70,
  'test/app/store-truth.test.ts': 70,
  'test/lib/coordination/lease-model.test.ts': 31,
  'test/app/shutdown.test.ts': 23,
  'test/app/discord-http-interactions.test.ts': 17,
  'test/chaos/chaos.test.ts': 59,
  'test/app/hostile-config.test.ts': 10,
  'test/app/platform-start.test.ts': 11,
  'test/app/store-outage.test.ts': 11,
  'test/engine/lists/list-reader.test.ts': 23,
  'test/app/demo.test.ts': 15,
  'test/engine/independent-projects.test.ts': 8,
};

const isJourney = (file: TestSpecification) => file.moduleId.includes('/test/journeys/');

/**
 * Vitest runs files from one queue, each on the next free worker. This orders the queue so the run behaves as
 * lanes: it plays the run out with the estimated times, the journeys' lanes taking the longest journey left and
 * the module lanes the longest module test left (either kind taking the other's once its own are gone), and queues
 * each file when its lane would take it. The longest files start first; no wait leaves a core idle for long.
 */
class Lanes extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const seconds = (file: TestSpecification) => {
      const path = relative(this.ctx.config.root, file.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${file.project.name}:${path}`)?.duration;
      return (
        measuredSeconds[path] ??
        (cached === undefined ? undefined : cached / 1000) ??
        (isJourney(file) ? 60 : 1)
      );
    };
    const longestFirst = (kind: TestSpecification[]) => kind.sort((a, b) => seconds(b) - seconds(a));
    const queues = [
      longestFirst(sorted.filter(isJourney)),
      longestFirst(sorted.filter((f) => !isJourney(f))),
    ];
    const workers = [
      ...Array.from({ length: lanes.journeys }, () => ({ freeAt: 0, queue: 0 })),
      ...Array.from({ length: lanes.modules }, () => ({ freeAt: 0, queue: 1 })),
    ];
    const order: TestSpecification[] = [];
    for (;;) {
      // The lane that frees first (the first one listed among equals) takes its next file.
      const lane = workers.reduce((first, w) => (w.freeAt < first.freeAt ? w : first));
      const file = queues[lane.queue]?.shift() ?? queues.find((q) => q.length > 0)?.shift();
      if (!file) return order;
      order.push(file);
      lane.freeAt += seconds(file);
    }
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One directory per run for what files share across workers (the compiled app, built once).
    globalSetup: ['test/support/test-run.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Tests start real servers and bots on 127.0.0.1; see `lanes` for why five workers on a 2-core machine.
    pool: 'forks',
    maxWorkers: lanes.journeys + lanes.modules,
    // A worker runs file after file in one process and imports each module once: with a fresh process per file,
    // importing the sources and their libraries again (discord.js, Bolt, canvas...) was the largest share of the
    // suite's CPU (test/discord + test/core: 80 s of CPU isolated, 23 s not). Safe here because no test replaces a
    // module, fakes the global timers or changes process.env: clocks, stores and URLs are injected, and every
    // file closes the servers and children it starts.
    isolate: false,
    sequence: { sequencer: Lanes },
  },
});
