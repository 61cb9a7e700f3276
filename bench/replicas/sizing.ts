import type { connectRedis } from '../../src/lib/coordination/redis-client.js';
import type { ProcessSample } from './replica-process.js';

/** Per-replica CPU (% of one core), RSS and API request rate over the window, averaged over the replicas. */
export function sizingFigures(before: readonly ProcessSample[], after: readonly ProcessSample[]) {
  const each = after.map((a, i) => {
    const b = before[i]!;
    const seconds = (a.at - b.at) / 1000;
    return {
      cpuPct: ((a.cpuSeconds - b.cpuSeconds) / seconds) * 100,
      rssMb: a.rssBytes / 1_048_576,
      requestsPerSec: (a.apiRequests - b.apiRequests) / seconds,
    };
  });
  const mean = (pick: (e: (typeof each)[number]) => number) =>
    Math.round((each.reduce((s, e) => s + pick(e), 0) / each.length) * 10) / 10;
  return {
    cpuPctPerReplica: mean((e) => e.cpuPct),
    rssMbPerReplica: mean((e) => e.rssMb),
    apiRequestsPerSecPerReplica: mean((e) => e.requestsPerSec),
  };
}

/** Keys that must survive a Redis crash: without expiry (state, subscriptions) or living long (delivery records). */
export async function durableKeys(raw: Awaited<ReturnType<typeof connectRedis>>): Promise<string[]> {
  const keys = await raw.keys('fundbot:*');
  const ttls = await Promise.all(keys.map((key) => raw.pTTL(key)));
  return keys.filter((_, i) => ttls[i] === -1 || (ttls[i] ?? 0) > 3_600_000);
}
