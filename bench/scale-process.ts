import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Registry } from 'prom-client';
import { createApiClient, DEFAULT_HEDGE_AFTER_MS, parseProjectKey } from '../src/api/index.js';
import { ENGINE_STORE_PREFIX } from '../src/app/replica-coordination.js';
import { startKeyChecks } from '../src/app/start-key-checks.js';
import { startReplicas } from '../src/app/start-replicas.js';
import type { ProjectConfig } from '../src/config/index.js';
import { createEngine, type FeedName } from '../src/engine/index.js';
import { systemRandom } from '../src/lib/random.js';
import { namespaced, observedStore, openStore } from '../src/lib/store.js';
import { silentLogger } from '../src/ops/index.js';
import { shiftedToAfterMidnight } from './shifted-clock.js';

/** What one process serving many projects reports (bench `scale`, and each replica of `scaleRedis`). */
export interface ScaleProcessFigures {
  /** Projects whose five feeds this process polled at least once. */
  readonly projectsFullyPolled: number;
  /** From the start (key checks included) until the last of them was fully polled; -1 when none was. */
  readonly firstPollAllMs: number;
  /** CPU of this process over the steady window, in % of one core. */
  readonly cpuPct: number;
  /** Peak resident set size, MB. */
  readonly rssMb: number;
  readonly details: Record<string, unknown>;
}

export interface ScaleProcessOptions {
  readonly simUrl: string;
  readonly keys: readonly string[];
  /** The simulator's clock shift (both run just after a UTC midnight). */
  readonly offsetMs: number;
  /** `sqlite://…` (one process, the default store) or `redis://…` (replicas share it, leases spread the projects). */
  readonly storeUrl: string;
  /** Told each project this process fully polled, as it happens. */
  readonly onFullyPolled?: (project: string) => void;
  /** Resolves when the steady window may start (after the first polls); the window is `steadyWindowMs` long. */
  readonly steady: (polledHere: () => number, held: () => number) => Promise<void>;
}

const steadyWindowMs = 30_000;
const settleMs = 10_000;

/**
 * Serves `keys.length` projects in this process the way the bot does (startKeyChecks: 16 checks
 * at once, each project's first poll after its own check; the real store behind observedStore's
 * 5 s bound; on Redis the replica's leases and balancer) on the REAL clock, against a simulator in
 * another process. CPU is process.cpuUsage() over a steady window; the simulator's is not counted.
 * Store operations that failed (a timeout at start-up, issue 22) are counted in `details`.
 */
export async function runScaleProcess(options: ScaleProcessOptions): Promise<ScaleProcessFigures> {
  const clock = shiftedToAfterMidnight(options.offsetMs);
  let copiesSent = 0;
  const api = createApiClient({
    baseUrl: options.simUrl,
    clock,
    random: systemRandom,
    maxRateLimitRetries: 0,
    hedge: { afterMs: DEFAULT_HEDGE_AFTER_MS },
    onResponse: (info) => {
      if (info.hedge) copiesSent += 1;
    },
  });
  const projects: ProjectConfig[] = options.keys.map((raw, i) => ({
    linkCaption: `project-${i}`,
    apiKeyEnv: `PROJECT_${i}_API_KEY`,
    apiKey: parseProjectKey(raw),
    milestones: [],
  }));
  const cpuAtStart = process.cpuUsage();
  // Where the first poll's time goes (issue 22, scaleRedis): this process's CPU, its event loop's delay, and
  // on Redis when the leases stopped moving.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  let heldNow = () => projects.length;
  let heldLast = -1;
  let heldSettledAt = 0;
  let peakRss = process.memoryUsage.rss();
  // memoryUsage.rss() reads the RSS alone (memoryUsage() also walks the heap spaces).
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    const held = heldNow();
    if (held !== heldLast) [heldLast, heldSettledAt] = [held, Date.now()];
  }, 250);
  // Failed store operations by error, with the first message of each (what an operator would read in the log).
  const storeFailures: Record<string, { count: number; first: string }> = {};
  const onOutcome = (outcome: { ok: boolean; error?: unknown }) => {
    if (outcome.ok) return;
    const error = outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error));
    const seen = storeFailures[error.name];
    if (seen) seen.count += 1;
    else storeFailures[error.name] = { count: 1, first: error.message.slice(0, 160) };
  };
  const store = observedStore(await openStore(options.storeUrl), { clock, onOutcome });
  const started = Date.now();
  const replicas = await startReplicas({
    storeUrl: options.storeUrl,
    leaseTtlMs: 30_000,
    clock,
    logger: silentLogger,
    registry: new Registry(),
    projects: () => projects.map((p) => p.linkCaption),
    onStoreOutcome: onOutcome,
  });
  if (replicas) heldNow = () => replicas.held().length;
  // As the bot does (src/app/start-bot.ts): a replica checks the keys of the projects it holds, as it takes them.
  const checks = startKeyChecks({
    api,
    projects,
    logger: silentLogger,
    start: replicas ? 'when-held' : 'all',
  });
  replicas?.whenAcquired((acquired) => checks.check(acquired));
  const checksDone = checks.settled().then(() => Date.now());
  const polled = new Map<string, Set<FeedName>>();
  let lastFullAt = 0;
  let fullyPolled = 0;
  let firstPollCpuMs = 0;
  let cpuReadAt = 0;
  const engine = createEngine({
    api,
    // As wire-fundbot gives it: the engine's keys under `engine/`, where a replica's fenced commits write them.
    store: namespaced(store, ENGINE_STORE_PREFIX),
    clock,
    random: systemRandom,
    ...(replicas ? { lease: replicas.engineLease, replicaId: replicas.replicaId } : {}),
    ...(replicas ? { options: { leaseTtlMs: replicas.ttlMs } } : {}),
    projects: projects.map((p) => ({
      linkCaption: p.linkCaption,
      key: p.apiKey,
      ready: checks.ready(p.linkCaption),
      checkedRead: () => checks.takeCheckedRead(p.linkCaption),
    })),
    deliver: async () => {},
    onPoll: (poll) => {
      if (poll.result !== 'ok') return;
      const feeds = polled.get(poll.project) ?? new Set<FeedName>();
      polled.set(poll.project, feeds);
      const before = feeds.size;
      feeds.add(poll.feed);
      if (before < 5 && feeds.size === 5) {
        fullyPolled += 1;
        lastFullAt = Date.now();
        // Read at most every 50 ms (a syscall; a read per project was 2% of the CPU it measures), and at the
        // last project held as the sampler last counted them: counting the leases here, per project, copied and
        // sorted the 1,000 held names each time (0.75 s of a replica's 5 s, measured in a profile).
        if (lastFullAt - cpuReadAt >= 50 || fullyPolled === heldLast) {
          cpuReadAt = lastFullAt;
          firstPollCpuMs = cpuMs(process.cpuUsage(cpuAtStart));
        }
        options.onFullyPolled?.(poll.project);
      }
    },
  });
  replicas?.whenAcquired((acquired) => {
    for (const project of acquired) engine.leaseGranted(project);
  });
  await engine.start();
  await options.steady(
    () => fullyPolled,
    () => (replicas ? replicas.held().length : projects.length),
  );
  loopDelay.disable();
  const firstPollLoopDelayP99Ms = Math.round(loopDelay.percentile(99) / 1e6);
  const checksDoneAt = await checksDone;
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  const cpuBefore = process.cpuUsage();
  const windowStart = performance.now();
  await new Promise((resolve) => setTimeout(resolve, steadyWindowMs));
  const cpu = process.cpuUsage(cpuBefore);
  const windowMs = performance.now() - windowStart;
  const polls = engine.metrics().polls;
  const held = replicas?.held().length;
  // After the steady window: a replica above its share at the first polls gives the excess up later.
  const leasesSettledMs = heldSettledAt - started;
  clearInterval(sampler);
  await engine.stop();
  await replicas?.stop();
  await api.close();
  await store.close();
  await replicas?.close();
  return {
    projectsFullyPolled: fullyPolled,
    firstPollAllMs: lastFullAt === 0 ? -1 : lastFullAt - started,
    cpuPct: Math.round((cpuMs(cpu) / windowMs) * 1000) / 10,
    rssMb: Math.round(peakRss / 104_857.6) / 10,
    details: {
      keyChecksDoneMs: checksDoneAt - started,
      firstPollCpuMs,
      firstPollCpuMsPerProject: Math.round((firstPollCpuMs / Math.max(1, fullyPolled)) * 100) / 100,
      firstPollLoopDelayP99Ms,
      polls,
      copiesOfSlowRequests: copiesSent,
      storeFailures,
      ...(held === undefined ? {} : { projectsHeldAtEnd: held, leasesSettledMs }),
    },
  };
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return Math.round((usage.user + usage.system) / 1000);
}
