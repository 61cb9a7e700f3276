import { fork } from 'node:child_process';
import { createApiClient, DEFAULT_HEDGE_AFTER_MS, parseProjectKey } from '../src/api/index.js';
import { startKeyChecks } from '../src/app/start-key-checks.js';
import type { ProjectConfig } from '../src/config/index.js';
import { createEngine, type FeedName } from '../src/engine/index.js';
import { systemRandom } from '../src/lib/random.js';
import { type KeyValueStore, memoryStore } from '../src/lib/store.js';
import { silentLogger } from '../src/ops/index.js';
import { startBigProject } from './big-project.js';
import type { BenchSection } from './section.js';
import { shiftedToAfterMidnight } from './shifted-clock.js';
import { percentile } from './stats.js';

/** Remembers the serialized size of the latest value under each key: the state "as stored". */
function sizeRecordingStore(inner: KeyValueStore): KeyValueStore & { bytes(): number } {
  const sizes = new Map<string, number>();
  return {
    get: (key, schema) => inner.get(key, schema),
    async set(key, value, ttl) {
      sizes.set(key, Buffer.byteLength(JSON.stringify(value)));
      await inner.set(key, value, ttl);
    },
    async delete(key) {
      sizes.delete(key);
      return inner.delete(key);
    },
    close: () => inner.close(),
    bytes: () => [...sizes.values()].reduce((a, b) => a + b, 0),
  };
}

/**
 * One project with `supporters` supporters (and 300 wall posts): the engine's
 * stored state after a baseline and some activity, and the CPU time of one idle
 * cycle (every feed due, nothing new), median of several. The process's CPU
 * includes the in-process simulator, whose pages cost O(limit), not O(list).
 */
export async function measureScale(supporters: number): Promise<{ stateMb: number; idleCycleCpuMs: number }> {
  const store = sizeRecordingStore(memoryStore());
  const { clock, engine, close } = await startBigProject({ supporters, seed: 9, store });
  const samples: number[] = [];
  for (let i = 0; i < 7; i++) {
    clock.advance(3_600_000); // every feed is due; nothing is new
    const before = process.cpuUsage();
    await engine.runDue();
    const used = process.cpuUsage(before);
    samples.push((used.user + used.system) / 1000);
  }
  const stateMb = Math.round((store.bytes() / 1_048_576) * 1000) / 1000;
  await close();
  return { stateMb, idleCycleCpuMs: Math.round(percentile(samples, 50) * 100) / 100 };
}

/** What `scale` holds in the JSON line. */
export interface ManyProjectsFigures {
  readonly projects: number;
  /** From the start (key checks included) until every feed of every project was polled once. */
  readonly firstPollAllMs: number;
  /** CPU of this process over a steady window, in % of one core. */
  readonly cpuPct: number;
  /** Peak resident set size of the process serving the projects (a fresh one in the bench). */
  readonly rssMb: number;
}

const steadyWindowMs = 30_000;
const settleMs = 10_000;
/** The run starts this long after a UTC midnight (both processes' clocks are shifted there). */
const afterMidnightMs = 10_000;

function offsetToAfterMidnight(): number {
  const now = Date.now();
  return Math.floor(now / 86_400_000 + 1) * 86_400_000 + afterMidnightMs - now;
}

/**
 * `count` projects in this process, each with its own key, started the way the bot
 * starts them (startKeyChecks: 16 checks at once with their own timeout, each
 * project's first poll after its own check) on the REAL clock, against the
 * simulator in a child process behind a proxy that holds 1% of requests for 5 s.
 * CPU is process.cpuUsage() over a steady window after the start; the simulator's
 * CPU is in the child and not counted.
 */
export async function measureManyProjects(count: number): Promise<ManyProjectsFigures & { details: object }> {
  const offsetMs = offsetToAfterMidnight();
  const clock = shiftedToAfterMidnight(offsetMs);
  const child = fork(new URL('./scale-sim-child.ts', import.meta.url), [String(count), String(offsetMs)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ url: string; keys: string[] }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string; keys: string[] }));
    child.once('exit', (code) => reject(new Error(`the simulator process exited (${code})`)));
  });
  // Copies of slow GETs, as the bot sends them by default (api.hedgeAfterMs): what the tail costs in requests.
  let copiesSent = 0;
  const api = createApiClient({
    baseUrl: ready.url,
    clock,
    random: systemRandom,
    maxRateLimitRetries: 0,
    hedge: { afterMs: DEFAULT_HEDGE_AFTER_MS },
    onResponse: (info) => {
      if (info.hedge) copiesSent += 1;
    },
  });
  const projects: ProjectConfig[] = ready.keys.map((raw, i) => ({
    linkCaption: `project-${i}`,
    apiKeyEnv: `PROJECT_${i}_API_KEY`,
    apiKey: parseProjectKey(raw),
    milestones: [],
  }));
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 250);
  const polled = new Map<string, Set<FeedName>>();
  let allPolledAt = 0;
  let fullyPolled = 0;
  let markAllPolled: () => void = () => {};
  const allPolled = new Promise<void>((resolve) => {
    markAllPolled = resolve;
  });
  const started = Date.now();
  const checks = startKeyChecks({ api, projects, logger: silentLogger });
  const checksDone = checks.report.then(() => Date.now());
  const engine = createEngine({
    api,
    store: memoryStore(),
    clock,
    random: systemRandom,
    projects: projects.map((p) => ({
      linkCaption: p.linkCaption,
      key: p.apiKey,
      ready: checks.ready(p.linkCaption),
    })),
    deliver: async () => {},
    onPoll: (poll) => {
      if (poll.result !== 'ok') return;
      const feeds = polled.get(poll.project) ?? new Set<FeedName>();
      polled.set(poll.project, feeds);
      const before = feeds.size;
      feeds.add(poll.feed);
      if (before < 5 && feeds.size === 5) fullyPolled += 1;
      if (before < 5 && fullyPolled === count) {
        allPolledAt = Date.now();
        markAllPolled();
      }
    },
  });
  await engine.start();
  const deadline = new Promise<void>((resolve) => setTimeout(resolve, 120_000));
  await Promise.race([allPolled, deadline]);
  const checksDoneAt = await checksDone;
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  const cpuBefore = process.cpuUsage();
  const windowStart = performance.now();
  await new Promise((resolve) => setTimeout(resolve, steadyWindowMs));
  const cpu = process.cpuUsage(cpuBefore);
  const windowMs = performance.now() - windowStart;
  const polls = engine.metrics().polls;
  clearInterval(sampler);
  await engine.stop();
  await api.close();
  const stats = await new Promise<{ requests: number; slowed: number; cpuMs: number }>((resolve) => {
    child.once('message', (m) => resolve(m as { requests: number; slowed: number; cpuMs: number }));
    child.send('stats');
  });
  child.disconnect();
  return {
    projects: count,
    firstPollAllMs: allPolledAt === 0 ? -1 : allPolledAt - started,
    cpuPct: Math.round(((cpu.user + cpu.system) / 1000 / windowMs) * 1000) / 10,
    rssMb: Math.round(peakRss / 104_857.6) / 10,
    details: {
      keyChecksDoneMs: checksDoneAt - started,
      projectsFullyPolled: [...polled.values()].filter((f) => f.size === 5).length,
      polls,
      simRequests: stats.requests,
      slowedRequests: stats.slowed,
      copiesOfSlowRequests: copiesSent,
      simulatorCpuMs: stats.cpuMs,
    },
  };
}

/** {@link measureManyProjects} in a fresh process (bench/scale-bot-child.ts). */
async function inFreshProcess(count: number): Promise<ManyProjectsFigures & { details: object }> {
  const child = fork(new URL('./scale-bot-child.ts', import.meta.url), [String(count)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m as ManyProjectsFigures & { details: object }));
    child.once('exit', (code) =>
      reject(new Error(`the 1,000-project run exited (${code}) before reporting`)),
    );
  });
}

/** State size and idle-cycle CPU at 100,000 supporters, with 1,000 for comparison; 1,000 projects in one process. */
export const scaleSection: BenchSection = {
  name: 'scale',
  async run() {
    const small = await measureScale(1_000);
    const big = await measureScale(100_000);
    const { details: many, ...scale } = await inFreshProcess(1_000);
    return {
      stateMb100k: big.stateMb,
      idleCycleCpuMs100k: big.idleCycleCpuMs,
      scale,
      details: { stateMb1k: small.stateMb, idleCycleCpuMs1k: small.idleCycleCpuMs, scaleRun: many },
    };
  },
};
