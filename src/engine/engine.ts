import { silentLogger } from '../domain/logger.js';
import { type EngineContext, emptyCounters } from './engine-context.js';
import { engineLoop } from './engine-loop.js';
import type { CreateEngineOptions, Engine } from './engine-options.js';
import { engineSettings } from './engine-settings.js';
import { memoryLease } from './lease.js';
import { drainOutbox } from './outbox.js';
import { releaseLeases } from './project-lease.js';
import { ProjectRuns } from './project-runs.js';
import { createProjectRuntimes } from './project-runtime.js';
import { createReadModel } from './read-model.js';
import { readModelSource } from './read-model-source.js';

export type {
  CreateEngineOptions,
  Engine,
  EngineMetrics,
  EngineOptions,
  EngineProject,
  FeedName,
  PollOutcome,
  ProjectPollingStatus,
} from './engine-options.js';

/**
 * Creates the event engine. Nothing happens until `start()` or `runDue()`.
 *
 * The parts, one job each: project-runtime (per-project memory), scheduler (due
 * times, polls, errors), replan (budget plan), feeds/* (one poll per feed),
 * project-state-store (the one durable write), outbox (delivery), project-lease
 * (replicas), engine-loop (real time) and read-model (what commands read).
 */
export function createEngine(deps: CreateEngineOptions): Engine {
  const { clock, deliver } = deps;
  const settings = engineSettings(deps.options);
  const runtimes = createProjectRuntimes({
    api: deps.api,
    projects: deps.projects,
    reserveShare: settings.reserveShare,
    now: clock.now(),
  });
  const ctx: EngineContext = {
    api: deps.api,
    store: deps.store,
    clock,
    random: deps.random,
    logger: deps.logger ?? silentLogger,
    settings,
    counters: emptyCounters(),
    runtimes,
    lease: deps.lease ?? memoryLease(clock),
    replicaId: deps.replicaId ?? 'replica-1',
    onPoll: deps.onPoll,
  };
  // The loop is created below; a finished run wakes it to re-read the next due time.
  let wake = () => {};
  const runs = new ProjectRuns(ctx, deliver, settings.maxConcurrentProjects, () => wake());
  const runDue = () => runs.runAll();
  const loop = engineLoop(ctx, runs);
  wake = () => loop.wake();

  return {
    async start() {
      loop.start();
    },
    async stop() {
      await loop.stop();
      await releaseLeases(ctx);
    },
    nextDueAt: () => runs.nextDueAt(),
    runDue,
    drainOutbox: () => drainOutbox(ctx, deliver),
    readModel: createReadModel(readModelSource(ctx)),
    metrics: () => ({ ...ctx.counters, requests: { ...ctx.counters.requests } }),
    keyReplaced(linkCaption) {
      const rt = runtimes.get(linkCaption);
      if (rt === undefined) return;
      const now = clock.now();
      if (rt.paused !== null) rt.paused.retryAt = now;
      for (const f of rt.feeds.values()) if (f.disabledReason !== undefined) f.dueAt = now;
      loop.wake();
    },
    status: () =>
      [...runtimes.values()].map((rt) => ({
        project: rt.config.linkCaption,
        paused: rt.paused === null ? null : { reason: rt.paused.reason, since: rt.paused.since },
        disabledFeeds: [...rt.feeds].filter(([, f]) => f.disabledReason !== undefined).map(([feed]) => feed),
      })),
  };
}
