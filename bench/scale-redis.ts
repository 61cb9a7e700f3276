/**
 * `scaleRedis` (issue 33): three replicas of the REAL bot, the compiled entry point the image runs (bench/scale-bot.ts:
 * `node dist/src/main.js`, Slack over HTTP on one fake, the ops server, logging at info), on one real redis-server
 * (append-only file, fsync at every write), configured alike with 3,000 projects (each its own Pro key) that their
 * leases spread, against the simulator in its own process on the real clock. Measured from outside only:
 *
 * - per replica `firstPollAllMs`: from its spawn until every project it holds at the end (its /healthz) had been
 *   answered on all five feeds (the simulator's log), `rssMb` its peak resident set (/proc VmHWM), `cpuPct` over
 *   the steady window;
 * - fleet `firstPollAllMs`: from the first spawn until all 3,000 projects were.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeSlack } from '../test/fakes/slack/fake-slack.js';
import { freePort, redisUnavailableReason, startRedisServer } from '../test/support/redis-server.js';
import { benchAppDir } from './compiled-children.js';
import { ProcWatch } from './proc-sample.js';
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
 * The projects a replica says it holds (`/healthz`, check `replica`: "replica r holds N project(s): a, b"), or
 * undefined when it did not answer in three tries of 30 s: a replica saturated on a loaded machine answered
 * /healthz after more than 10 s, and one slow answer must not lose the whole bench run.
 */
async function heldBy(opsUrl: string): Promise<string[] | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const response = await fetch(`${opsUrl}/healthz`, { signal: AbortSignal.timeout(30_000) });
      const health = (await response.json()) as { checks?: Record<string, { detail?: string }> };
      const detail = health.checks?.['replica']?.detail ?? '';
      const list = detail.slice(detail.indexOf(': ') + 2);
      return detail.includes(': ') && list !== 'none' ? list.split(', ') : [];
    } catch {
      // Asked again below; the third silence is reported as "not answered".
    }
  }
  return undefined;
}

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
    await seedSubscriptions(redis.url, count);
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
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    const from = watches.map((w) => w.sample());
    await new Promise((resolve) => setTimeout(resolve, steadyMs));
    const to = watches.map((w) => w.sample());
    const fullAt = await sim.fullAt();
    const perReplica = await Promise.all(
      bots.map(async (bot, i) => {
        const held = (await heldBy(bot.opsUrl)) ?? [];
        const polledAt = held.map((p) => fullAt[p] ?? Number.POSITIVE_INFINITY);
        const lastAt = Math.max(0, ...polledAt);
        const start = from[i];
        const end = to[i];
        return {
          entry: 'compiled',
          projectsHeldAtEnd: held.length,
          // A replica whose /healthz did not answer has no first-poll figure of its own.
          ...(held.length === 0 ? { healthzUnanswered: true } : {}),
          // No holder list (its /healthz did not answer): no figure, not a time before the epoch.
          firstPollAllMs: held.length > 0 && Number.isFinite(lastAt) ? lastAt - bot.spawnedAt : -1,
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
    await rm(dir, { recursive: true, force: true });
  }
}

export const scaleRedisSection: BenchSection = {
  name: 'scale-redis',
  async run() {
    return { scaleRedis: await measureScaleRedisBots() };
  },
};
