import { noteForLog } from '../domain/engine-notes.js';
import { silentLogger } from '../domain/logger.js';
import type { CreateEngineOptions, Engine } from './engine-options.js';
import { engineSettings } from './engine-options.js';
import { memoryLease } from './lease/lease.js';
import { drainOutbox, inOrderSink } from './outbox/outbox.js';
import { type EngineContext, emptyCounters } from './project/engine-context.js';
import { addProjectRuntime, createProjectRuntimes } from './project/project-runtime.js';
import { createReadModel } from './read-model/read-model.js';
import { readModelSource } from './read-model-source.js';
import { engineLoop } from './runs/engine-loop.js';
import { ProjectRuns } from './runs/project-runs.js';
import type { CredentialGate } from './schedule/credential-gate.js';
import { keyChanged } from './schedule/key-pause.js';
import { processCeilingOf } from './schedule/runtime-census.js';
import { hasBaseline } from './state/baseline.js';
import { releaseLeases } from './state/project-lease.js';
import { forgetProjectState } from './state/project-state-keys-store.js';
import { UserSignal, type UserSignalTarget } from './user-signal/user-signal.js';

export type {
  CreateEngineOptions,
  Engine,
  EngineMetrics,
  EngineOptions,
  EngineProject,
  FeedName,
  KeySource,
  PollOutcome,
  ProjectPollingStatus,
  RejectedKeyCode,
} from './engine-options.js';

/**
 * Creates the event engine. Nothing happens until `start()` or `runDue()`.
 *
 * The stages, one folder each (src/engine/README.md): lists/ (read a list: window, order, late entries),
 * events/ (entries become events), schedule/ (due times, the budget plan, the key's pause), lease/ (who polls),
 * state/ (the one durable write), outbox/ (delivery), health/ (feed health, the status board), read-model/ (what
 * commands read), feeds/ (one poll per feed), runs/ (the loop that runs each project), user-signal/ (the User
 * key's change signal). context/ holds what every stage is handed; project/ assembles the per-project record
 * from the stages' slices.
 */
export function createEngine(deps: CreateEngineOptions): Engine {
  const { clock } = deps;
  const settings = engineSettings(deps.options);
  const gates = new Map<string, CredentialGate>();
  const runtimes = createProjectRuntimes({
    api: deps.api,
    projects: deps.projects,
    reserveShare: settings.reserveShare,
    now: clock.now(),
    gates,
  });
  const logger = deps.logger ?? silentLogger;
  const userSignal =
    deps.userKey === undefined
      ? undefined
      : new UserSignal({
          api: deps.api,
          key: deps.userKey,
          clock,
          random: deps.random,
          logger: logger.child({ component: 'user-signal' }),
          minIntervalMs: settings.minIntervalMs,
          // The configured projects: the key's owner should be a member of each (a warning at its first read).
          members: deps.projects.map((p) => p.linkCaption),
          ...(deps.userKeyReader ? { shared: { reads: deps.userKeyReader, store: deps.store } } : {}),
        });
  const ctx: EngineContext = {
    api: deps.api,
    store: deps.store,
    clock,
    random: deps.random,
    logger,
    settings,
    counters: emptyCounters(),
    runtimes,
    lease: deps.lease ?? memoryLease(clock),
    replicaId: deps.replicaId ?? 'replica-1',
    onPoll: deps.onPoll,
  };
  // The loop is created below; a finished run wakes it to re-read the next due time.
  let wake = () => {};
  const sink =
    deps.sink ??
    inOrderSink(deps.deliver ?? noConsumer, clock, deps.random, (project, event, error) => {
      ctx.counters.deliveryFailures += 1;
      logger.warn(
        { project, event: event.id, err: error instanceof Error ? error.message : String(error) },
        'delivery failed: will retry',
      );
    });
  const runs = new ProjectRuns(ctx, sink, settings.maxConcurrentProjects, () => wake());
  const signalTarget: UserSignalTarget = {
    watched: () => runtimes.keys(),
    // Only schedules fundings polls (through the key's gate, like any poll): never a notice itself.
    looked: (linkCaption, signalIntervalMs, moved) => {
      if (runs.fundingsLooked(linkCaption, signalIntervalMs, moved)) wake();
    },
  };
  const runDue = async () => {
    await userSignal?.runIfDue(signalTarget);
    await runs.runAll();
  };
  // The user read runs beside the projects: its own single flight, never awaited by the loop.
  const loop = engineLoop(ctx, {
    startDue() {
      if (userSignal !== undefined && clock.now() >= userSignal.dueAt) {
        void userSignal.runIfDue(signalTarget).then(() => wake());
      }
      runs.startDue();
    },
    nextDueAt: () => Math.min(runs.nextDueAt(), userSignal?.dueAt ?? Number.POSITIVE_INFINITY),
    idle: async () => {
      await userSignal?.idle();
      await runs.idle();
    },
  });
  wake = () => loop.wake();
  for (const project of deps.projects) {
    if (project.ready !== undefined) {
      runs.holdUntil(project.linkCaption, project.ready, (lc) => runtimes.delete(lc));
    }
  }

  return {
    async start() {
      loop.start();
    },
    async stop() {
      await loop.stop();
      await releaseLeases(ctx);
    },
    nextDueAt: () => Math.min(runs.nextDueAt(), userSignal?.dueAt ?? Number.POSITIVE_INFINITY),
    runDue,
    drainOutbox: () => drainOutbox(ctx, sink),
    readModel: createReadModel(readModelSource(ctx)),
    metrics: () => ({
      ...ctx.counters,
      requests: { ...ctx.counters.requests },
      userReads: userSignal?.counts.reads ?? 0,
      userSignals: userSignal?.counts.signals ?? 0,
    }),
    ceiling: () => processCeilingOf(ctx),
    keyReplaced(linkCaption) {
      const rt = runtimes.get(linkCaption);
      if (rt === undefined) return;
      const now = clock.now();
      keyChanged(ctx, rt);
      for (const f of rt.feeds.values()) if (f.disabledReason !== undefined) f.dueAt = now;
      runs.invalidate(linkCaption);
      loop.wake();
    },
    addProject(project) {
      // A project connected from chat (or taken over by this replica's sync): polled at once. Its stored
      // state, if any (a restart, a key rotation), is loaded by its first run as for any project.
      if (runtimes.has(project.linkCaption)) return false;
      addProjectRuntime(
        runtimes,
        { api: deps.api, reserveShare: settings.reserveShare, now: clock.now(), gates },
        project,
      );
      runs.invalidate(project.linkCaption);
      loop.wake();
      return true;
    },
    async readBaseline(linkCaption) {
      const rt = runtimes.get(linkCaption);
      if (rt === undefined) return false;
      // A project just added has every feed due: this run is its first cycle, committed before it resolves.
      if (!hasBaseline(rt)) await runs.runNow(linkCaption);
      return hasBaseline(rt);
    },
    async forgetState(linkCaption) {
      if (runtimes.has(linkCaption)) throw new Error(`${linkCaption} is still watched: remove it first`);
      return forgetProjectState(ctx.store, linkCaption);
    },
    async removeProject(linkCaption) {
      if (!runtimes.delete(linkCaption)) return false;
      runs.invalidate(linkCaption);
      // Nothing is scheduled for it again, but a run in flight holds its runtime and still writes (its state,
      // the sink's offer): resolving only after it settled lets a caller forget the project's stored data
      // (a disconnect) or add it again with a new key (a rotation) without that run writing after them.
      await runs.settled(linkCaption);
      await ctx.lease.release(linkCaption, ctx.replicaId).catch(() => undefined);
      loop.wake();
      return true;
    },
    leaseGranted(linkCaption) {
      const rt = runtimes.get(linkCaption);
      if (rt === undefined) return;
      rt.leaseRetryAt = clock.now();
      runs.invalidate(linkCaption);
      loop.wake();
    },
    status: () =>
      [...runtimes.values()].map((rt) => ({
        project: rt.config.linkCaption,
        paused:
          rt.paused === null
            ? null
            : { reason: noteForLog(rt.paused.reason, rt.config.linkCaption), since: rt.paused.since },
        disabledFeeds: [...rt.feeds].filter(([, f]) => f.disabledReason !== undefined).map(([feed]) => feed),
      })),
  };
}

/** An engine given neither a sink nor a consumer keeps its events in the outbox. */
async function noConsumer(): Promise<void> {
  throw new Error('no delivery is connected: the event stays in the outbox');
}
