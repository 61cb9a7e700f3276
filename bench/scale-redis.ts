import { type ChildProcess, fork } from 'node:child_process';
import { createClient } from '@keyv/redis';
import { redisUnavailableReason, startRedisServer } from '../test/support/redis-server.js';
import { benchChild } from './compiled-children.js';
import type { ScaleProcessFigures } from './scale-process.js';
import { offsetToAfterMidnight, startScaleSimulator } from './scale-sim.js';
import type { BenchSection } from './section.js';

const replicaCount = 3;
const projectsPerReplica = 1_000;
const firstPollDeadlineMs = 180_000;

/**
 * `scaleRedis`: three replicas (real processes, bench/scale-redis-child.ts) on one real
 * redis-server (append-only file, fsync at every write, as the replicas bench runs it) carrying
 * 3,000 projects between them, the leases spreading them. Per replica the figures of `scale`
 * (first poll of every feed of the projects it holds, CPU, RSS); `firstPollAllMs` of the fleet
 * is until every one of the 3,000 projects was fully polled by some replica.
 */
export async function measureScaleRedis(): Promise<Record<string, unknown>> {
  const unavailable = redisUnavailableReason();
  if (unavailable !== undefined) return { skipped: unavailable };
  const redis = await startRedisServer({ persistence: 'aof' });
  const count = replicaCount * projectsPerReplica;
  const offsetMs = offsetToAfterMidnight();
  const sim = await startScaleSimulator(count, offsetMs);
  const children: ChildProcess[] = [];
  const childModule = await benchChild('bench/scale-redis-child.ts');
  try {
    const polled = new Set<string>();
    const started = Date.now();
    let fleetDoneAt = 0;
    let markDone: () => void = () => {};
    const fleetDone = new Promise<void>((resolve) => {
      markDone = resolve;
    });
    const figures = Array.from({ length: replicaCount }, () => {
      const child = fork(childModule, [], {
        execArgv: [],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      children.push(child);
      child.send({ simUrl: sim.url, keys: sim.keys, offsetMs, storeUrl: redis.url });
      return new Promise<ScaleProcessFigures>((resolve, reject) => {
        child.on('message', (m: { polled?: [string, number][]; figures?: ScaleProcessFigures }) => {
          // Same machine, same wall clock: the child's stamp is when the project was fully polled.
          for (const [project, at] of m.polled ?? []) {
            if (polled.has(project)) continue;
            polled.add(project);
            fleetDoneAt = Math.max(fleetDoneAt, at);
            if (polled.size === count) markDone();
          }
          if (m.figures !== undefined) resolve(m.figures);
        });
        child.once('exit', (code) =>
          reject(new Error(`a scaleRedis replica exited (${code}) before reporting`)),
        );
      });
    });
    await Promise.race([fleetDone, new Promise((resolve) => setTimeout(resolve, firstPollDeadlineMs))]);
    // What the fleet's first polls cost outside the replicas (read before the steady window adds to them).
    const redisWork = await redisServerWork(redis.url);
    const simulator = await sim.stats();
    for (const child of children) child.send('steady');
    const replicas = await Promise.all(figures);
    return {
      replicas: replicaCount,
      projects: count,
      firstPollAllMs: polled.size === count ? fleetDoneAt - started : -1,
      perReplica: replicas.map(({ details, ...r }) => ({
        ...r,
        projectsHeldAtEnd: details['projectsHeldAtEnd'],
        keyChecksDoneMs: details['keyChecksDoneMs'],
        storeFailures: details['storeFailures'],
        leasesSettledMs: details['leasesSettledMs'],
        firstPollCpuMs: details['firstPollCpuMs'],
        firstPollCpuMsPerProject: details['firstPollCpuMsPerProject'],
        firstPollLoopDelayP99Ms: details['firstPollLoopDelayP99Ms'],
      })),
      projectsFullyPolled: polled.size,
      untilFirstPollsDone: {
        redisCommandsPerProject: Math.round((redisWork.commands / count) * 10) / 10,
        redisCpuMs: redisWork.cpuMs,
        simulatorRequests: simulator.requests,
        simulatorCpuMs: simulator.cpuMs,
      },
    };
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill();
    sim.stop();
    await redis.stop();
  }
}

/** Commands redis-server has processed and the CPU it used (user + system) since it started. */
async function redisServerWork(url: string): Promise<{ commands: number; cpuMs: number }> {
  const client = createClient({ url });
  await client.connect();
  try {
    const info = await client.info();
    const field = (name: string) =>
      Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? Number.NaN);
    return {
      commands: field('total_commands_processed'),
      cpuMs: Math.round((field('used_cpu_user') + field('used_cpu_sys')) * 1000),
    };
  } finally {
    await client.quit();
  }
}

export const scaleRedisSection: BenchSection = {
  name: 'scale-redis',
  async run() {
    return { scaleRedis: await measureScaleRedis() };
  },
};
