/**
 * Issue 21: the daily digest goes out once per channel across replicas. Two schedulers,
 * each in a process of its own with its own delivery pipeline, on one store and shared
 * claims (an in-process table, and a real redis-server with the replicas' store and
 * redisClaims), run the same hourly check at once: every channel gets ONE digest.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ReplicaCoordination } from '../../src/app/replica-coordination.js';
import type { CronLike } from '../../src/digest/index.js';
import { type ClaimEntry, memoryClaims } from '../../src/lib/coordination/claims.js';
import { type RedisServer, skipRedisTests, startRedisServer } from '../support/redis-server.js';
import { connectTestReplica } from '../support/test-replica.js';
import {
  berlinNine,
  MINUTE,
  type ProcessOptions,
  type Setup,
  setup,
  stopSchedulers,
} from './helpers/scheduler-setup.js';

afterEach(stopSchedulers);

/** Both replicas run the hourly check at once; the loser of a claim reads the winner's record seconds later. */
async function runOnBoth(s: Setup, a: ProcessOptions, b: ProcessOptions) {
  const replicas = [await s.scheduler({}, a), await s.scheduler({}, b)];
  const runs = replicas.map((digest) => digest.runNow());
  await s.advance(2 * MINUTE);
  return Promise.all(runs);
}

describe('the digest across replicas', () => {
  it('two schedulers on one store with shared claims send it once per channel', async () => {
    const s = setup(berlinNine(10));
    const table = new Map<string, ClaimEntry>();
    const reports = await runOnBoth(
      s,
      { claims: memoryClaims(s.clock, 'replica-a', table) },
      { claims: memoryClaims(s.clock, 'replica-b', table) },
    );
    expect(s.poster.channels().sort()).toEqual(['general', 'team']);
    // Each replica knows it went out (its own post, or the other's record).
    for (const report of reports) expect(report.sent).toHaveLength(2);
    // The next hourly check on either finds it sent.
    s.clock.advance(60 * MINUTE);
    await runOnBoth(
      s,
      { claims: memoryClaims(s.clock, 'replica-a', table) },
      { claims: memoryClaims(s.clock, 'replica-b', table) },
    );
    expect(s.poster.posted).toHaveLength(2);
  });

  it('a replica that takes a project over after the digest minute (its holder was killed) sends it within a minute, not an hour later', async () => {
    const s = setup(berlinNine(10));
    // node-cron's task as its expression fires it: second 5 of each matching minute.
    let tick: (() => unknown) | undefined;
    let expression = '';
    const cron: CronLike = {
      schedule(e, task) {
        expression = e;
        tick = task;
        return { destroy: () => {} };
      },
    };
    const firesAt = (minute: number) => {
      const field = expression.split(' ')[1];
      return field === '*' || Number(field) === minute;
    };
    let held: string[] = [];
    const digest = await s.scheduler({ cron, projects: () => held });
    digest.start();
    for (let minute = 0; minute < 10 && s.poster.posted.length < 2; minute++) {
      // The killed holder's lease runs out: this replica holds the project from 09:02.
      if (minute === 2) held = ['solar-kiosk'];
      s.clock.set(berlinNine(10) + minute * MINUTE + 5_000);
      if (firesAt(minute)) await tick?.();
      await s.advance(10_000);
    }
    expect(s.poster.channels().sort()).toEqual(['general', 'team']);
    expect(Math.max(...s.poster.posted.map((p) => p.at))).toBeLessThan(berlinNine(10) + 4 * MINUTE);
  });

  describe.skipIf(skipRedisTests())('on a real redis-server', () => {
    let server: RedisServer | undefined;
    const replicas: ReplicaCoordination[] = [];

    afterEach(async () => {
      await stopSchedulers();
      for (const replica of replicas.splice(0)) await replica.store.close().catch(() => {});
      await server?.stop();
    });

    it('two replicas (the Redis store, redisClaims) send it once per channel', async () => {
      server = await startRedisServer();
      const replicaOf = async (id: string): Promise<ProcessOptions> => {
        const replica = await connectTestReplica(server!.url, id);
        replicas.push(replica);
        return { store: replica.store, claims: replica.claims };
      };
      const s = setup(berlinNine(10));
      const a = await replicaOf('replica-a');
      const b = await replicaOf('replica-b');
      await runOnBoth(s, a, b);
      expect(s.poster.channels().sort()).toEqual(['general', 'team']);
      s.clock.advance(60 * MINUTE);
      await runOnBoth(s, a, b);
      expect(s.poster.posted).toHaveLength(2);
    });
  });
});
