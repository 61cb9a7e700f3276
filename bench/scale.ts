import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type KeyValueStore, memoryStore } from '../src/lib/store.js';
import { startBigProject } from './big-project.js';
import { benchChild } from './compiled-children.js';
import { runScaleProcess } from './scale-process.js';
import type { BenchSection } from './section.js';
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
    setIfAbsent: (key, value, ttl) => inner.setIfAbsent(key, value, ttl),
    deleteIfValue: (key, expected) => inner.deleteIfValue(key, expected),
    deletePrefix: (prefix) => inner.deletePrefix(prefix),
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

/** The run starts this long after a UTC midnight (both processes' clocks are shifted there). */
const afterMidnightMs = 10_000;

export function offsetToAfterMidnight(): number {
  const now = Date.now();
  return Math.floor(now / 86_400_000 + 1) * 86_400_000 + afterMidnightMs - now;
}

/** The simulator for `count` projects in its own process (bench/scale-sim-child.ts). */
export async function startScaleSimulator(
  count: number,
  offsetMs: number,
): Promise<{
  url: string;
  keys: string[];
  stats(): Promise<{ requests: number; slowed: number; cpuMs: number }>;
  stop(): void;
}> {
  const child = fork(await benchChild('bench/scale-sim-child.ts'), [String(count), String(offsetMs)], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ url: string; keys: string[] }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string; keys: string[] }));
    child.once('exit', (code) => reject(new Error(`the simulator process exited (${code})`)));
  });
  return {
    ...ready,
    stats: () =>
      new Promise((resolve) => {
        child.once('message', (m) => resolve(m as { requests: number; slowed: number; cpuMs: number }));
        child.send('stats');
      }),
    stop: () => child.disconnect(),
  };
}

/**
 * `count` projects in this process on the default store (a SQLite file, as the bot runs them by
 * default), the bot's way (bench/scale-process.ts), against the simulator in a child process
 * behind a proxy that holds 1% of requests for 5 s.
 */
export async function measureManyProjects(count: number): Promise<ManyProjectsFigures & { details: object }> {
  const offsetMs = offsetToAfterMidnight();
  const sim = await startScaleSimulator(count, offsetMs);
  const dir = await mkdtemp(join(tmpdir(), 'fundbot-scale-'));
  try {
    const run = await runScaleProcess({
      simUrl: sim.url,
      keys: sim.keys,
      offsetMs,
      storeUrl: `sqlite://${join(dir, 'fundbot.sqlite')}`,
      steady: async (polledHere) => {
        const deadline = Date.now() + 120_000;
        while (polledHere() < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      },
    });
    const stats = await sim.stats();
    return {
      projects: count,
      firstPollAllMs: run.projectsFullyPolled === count ? run.firstPollAllMs : -1,
      cpuPct: run.cpuPct,
      rssMb: run.rssMb,
      details: {
        store: 'sqlite',
        projectsFullyPolled: run.projectsFullyPolled,
        ...run.details,
        simRequests: stats.requests,
        slowedRequests: stats.slowed,
        simulatorCpuMs: stats.cpuMs,
      },
    };
  } finally {
    sim.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** {@link measureManyProjects} in a fresh process (bench/scale-bot-child.ts). */
async function inFreshProcess(count: number): Promise<ManyProjectsFigures & { details: object }> {
  const child = fork(await benchChild('bench/scale-bot-child.ts'), [String(count)], {
    execArgv: [],
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
