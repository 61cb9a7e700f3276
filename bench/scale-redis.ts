/**
 * `scaleRedis` (issue 33): three replicas of the REAL bot, the compiled entry point the image runs (bench/scale-bot.ts:
 * `node dist/src/main.js`, Slack over HTTP on one fake, the ops server, logging at info), on one real redis-server
 * (append-only file, fsync at every write), configured alike with 3,000 projects (each its own Pro key) that their
 * leases spread, against the simulator in its own process on the real clock. Measured from outside only:
 *
 * - per replica `firstPollAllMs`: from its spawn until every project it holds at the end (its /healthz, one
 *   `poll:<project>` check each) had been answered on all five feeds (the simulator's log), `healthzMs` how long
 *   that /healthz took to answer, `rssMb` its peak resident set (/proc VmHWM), `cpuPct` over the steady window;
 * - fleet `firstPollAllMs`: from the first spawn until all 3,000 projects were.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeSlack } from '../test/fakes/slack/fake-slack.js';
import { freePort, redisUnavailableReason, startRedisServer } from '../test/support/redis-server.js';
import { benchAppDir } from './compiled-children.js';
import { ProcWatch } from './proc-sample.js';
import { polledProjects } from './replicas/replica-process.js';
import { type ScaleBot, startScaleBot } from './scale-bot.js';
import { offsetToAfterMidnight, startScaleSimulator } from './scale-sim.js';
import { scaleAdminUserId, seedSubscriptions } from './scale-subscribe.js';
import type { BenchSection } from './section.js';
import { waitUntil } from './wait-until.js';

const replicaCount = 3;
const projectsPerReplica = 1_000;
const firstPollDeadlineMs = 180_000;
const settleMs = 10_000;
const steadyMs = 60_000;
const botToken = 'xoxb-bench-scale-redis';
const signingSecret = 'bench-scale-redis-signing-secret';

/**
 * The projects a replica polls (`/healthz`: one `poll:<project>` check per held project; the `replica` check
 * counts them and names ten), or undefined when it did not answer in three tries of 30 s.
 */
async function heldBy(opsUrl: string): Promise<{ held: string[]; answeredMs: number } | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const askedAt = performance.now();
      const response = await fetch(`${opsUrl}/healthz`, { signal: AbortSignal.timeout(30_000) });
      const health = (await response.json()) as { checks?: Record<string, unknown> };
      return {
        held: polledProjects(health.checks ?? {}),
        answeredMs: Math.round(performance.now() - askedAt),
      };
    } catch {
      // Asked again below; the third silence is reported as "not answered".
    }
  }
  return undefined;
}

/**
 * Where a replica's start went, from its own log (ms after its spawn): `joinedMs` its fleet's leases taken ("replica
 * joined"), `runningMs` its start-up done ("fundbot is running": the chat adapters connected, the engine polling, its
 * key checks done). Absent when the line is not there.
 */
async function phasesOf(logPath: string, spawnedAt: number): Promise<Record<string, number>> {
  const phases: Record<string, number> = {};
  const text = await readFile(logPath, 'utf8').catch(() => '');
  for (const [name, msg] of [
    ['joinedMs', 'replica joined'],
    ['runningMs', 'fundbot is running'],
  ] as const) {
    const line = text.split('\n').find((l) => l.includes(`"msg":"${msg}"`));
    const time = line === undefined ? undefined : /"time":"([^"]+)"/.exec(line)?.[1];
    if (time !== undefined) phases[name] = Date.parse(time) - spawnedAt;
  }
  return phases;
}

/** The CPU a process had used by `at` (its last sample before then), ms; -1 without one. */
function cpuMsBy(watch: ProcWatch | undefined, at: number): number {
  const before = watch?.samples.filter((s) => s.at <= at) ?? [];
  return before.at(-1)?.cpuMs ?? -1;
}

function redisCli(port: number, ...args: string[]): string {
  return execFileSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' });
}

/**
 * `BENCH_SCALE_REDIS_KEEP=<dir>`: where the start went, for a person reading it (not a figure): the replicas' logs
 * are copied there, replica 0 runs with `--cpu-prof` into it, and Redis' command counts at the fleet's first polls
 * (`INFO commandstats`, all replicas together) and each replica's first-poll times (`replica-<i>.first-polls.json`,
 * ms after its spawn, in order: the tail after its busy part) are written beside them.
 */
const keepDir = process.env.BENCH_SCALE_REDIS_KEEP;

export async function measureScaleRedisBots(): Promise<Record<string, unknown>> {
  const unavailable = redisUnavailableReason();
  if (unavailable !== undefined) return { skipped: unavailable };
  const log = (message: string) =>
    process.stderr.write(`bench:scaleRedis ${new Date().toISOString().slice(11, 19)} ${message}\n`);
  const count = replicaCount * projectsPerReplica;
  const appDir = await benchAppDir();
  const redis = await startRedisServer({ persistence: 'aof' });
  const sim = await startScaleSimulator(count, offsetToAfterMidnight(), {
    realClock: true,
    supportersPerMinute: count * 0.06,
  });
  const slack = await startFakeSlack({
    botToken,
    users: [{ id: scaleAdminUserId, team_id: 'T0FAKE', name: 'lead', is_admin: true }],
  });
  const dir = await mkdtemp(join(tmpdir(), 'fundbot-scale-redis-'));
  const bots: ScaleBot[] = [];
  const watches: ProcWatch[] = [];
  try {
    // Set-up, not measured: the 3,000 subscriptions one at a time, each fsynced, took minutes on the loaded
    // machine. Written without a sync per write; the bot then runs on the durable setting (fsync every write).
    redisCli(redis.port, 'config', 'set', 'appendfsync', 'no');
    await seedSubscriptions(redis.url, count);
    redisCli(redis.port, 'config', 'set', 'appendfsync', 'always');
    if (keepDir !== undefined) redisCli(redis.port, 'config', 'resetstat');
    for (let i = 0; i < replicaCount; i++) {
      const bot = startScaleBot({
        appDir,
        dir,
        simUrl: sim.url,
        keys: sim.keys,
        storeUrl: redis.url,
        slack: { apiUrl: slack.apiUrl, port: await freePort(), botToken, signingSecret },
        opsPort: await freePort(),
        name: `replica-${i}`,
        ...(keepDir !== undefined && i === 0
          ? { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${keepDir}`] }
          : {}),
      });
      bots.push(bot);
      watches.push(new ProcWatch(await bot.pid(), 250));
    }
    await Promise.all(bots.map((b) => b.running));
    const fleetStart = Math.min(...bots.map((b) => b.spawnedAt));
    await waitUntil(
      'the first polls of every project',
      async () => (await sim.stats()).fullyPolled >= count,
      {
        timeoutMs: firstPollDeadlineMs,
        log,
      },
    );
    const first = await sim.stats();
    log(`first polls: ${first.fullyPolled}/${count} in ${first.lastFullAt - fleetStart} ms`);
    if (keepDir !== undefined)
      await writeFile(join(keepDir, 'commandstats.txt'), redisCli(redis.port, 'info', 'commandstats'));
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    const from = watches.map((w) => w.sample());
    await new Promise((resolve) => setTimeout(resolve, steadyMs));
    const to = watches.map((w) => w.sample());
    const fullAt = await sim.fullAt();
    const perReplica = await Promise.all(
      bots.map(async (bot, i) => {
        const asked = await heldBy(bot.opsUrl);
        const held = asked?.held ?? [];
        const polledAt = held.map((p) => fullAt[p] ?? Number.POSITIVE_INFINITY);
        // For a person reading it: when each held project was first fully polled (ms after the spawn), in order.
        if (keepDir !== undefined)
          await writeFile(
            join(keepDir, `replica-${i}.first-polls.json`),
            JSON.stringify(polledAt.map((at) => at - bot.spawnedAt).sort((a, b) => a - b)),
          );
        const lastAt = Math.max(0, ...polledAt);
        const start = from[i];
        const end = to[i];
        return {
          entry: 'compiled',
          projectsHeldAtEnd: held.length,
          // A replica whose /healthz did not answer has no first-poll figure of its own.
          ...(asked === undefined ? { healthzUnanswered: true } : { healthzMs: asked.answeredMs }),
          // No holder list (its /healthz did not answer): no figure, not a time before the epoch.
          firstPollAllMs: held.length > 0 && Number.isFinite(lastAt) ? lastAt - bot.spawnedAt : -1,
          // Where the time to the first polls went: the CPU this replica used by then (the three replicas, Redis and
          // the simulator share the machine's cores), and its phases by its own log.
          cpuMsToFirstPolls: Number.isFinite(lastAt) ? cpuMsBy(watches[i], lastAt) : -1,
          ...(await phasesOf(join(dir, `replica-${i}.log`), bot.spawnedAt)),
          rssMb: watches[i]?.peakRssMb() ?? -1,
          cpuPct: start && end ? (watches[i]?.cpuPct(start, end) ?? -1) : -1,
          logLines: bot.logged().lines,
        };
      }),
    );
    return {
      replicas: replicaCount,
      projects: count,
      entry: 'compiled',
      firstPollAllMs: first.fullyPolled === count ? first.lastFullAt - fleetStart : -1,
      projectsFullyPolled: first.fullyPolled,
      steadyS: steadyMs / 1000,
      perReplica,
    };
  } catch (error) {
    for (const bot of bots) log(`--- ${bot.opsUrl} log tail ---\n${bot.tail().slice(-2_000)}`);
    throw error;
  } finally {
    for (const w of watches) w.stop();
    await Promise.all(bots.map((b) => b.stop()));
    await slack.close();
    sim.stop();
    await redis.stop();
    if (keepDir !== undefined) await cp(dir, keepDir, { recursive: true });
    await rm(dir, { recursive: true, force: true });
  }
}

export const scaleRedisSection: BenchSection = {
  name: 'scale-redis',
  async run() {
    return { scaleRedis: await measureScaleRedisBots() };
  },
};
