/**
 * The lease balancer, model-tested (issue 29, item 6): fast-check draws fleets (projects, replicas and their
 * clock skew) and what happens to them (joins, deaths, pauses past the TTL or not, clean leaves), and
 * lease-model.ts runs each on the real LeaseBalancer, lease and registry. After each run:
 *
 * - fencing: every write the lease let through carried the token of one replica's tenure, and a project's
 *   tokens never went back (no replica wrote over a successor);
 * - no project went unpolled (no running replica holding it with the current token) longer than a lease's
 *   lifetime plus two ticks while any replica ran (a tick more than a single death or pause needs: see boundMs);
 * - settled, every project is held and no replica holds more than its share, ceil(projects / running).
 *
 * On memory leases the whole fleet runs on one virtual clock. On a real redis-server (where it can be started)
 * the lease expiry and the registry's beats are Redis' own clock, so that run is real time with a 600 ms TTL:
 * fencing and the settled share are checked there, the time bound only on the virtual clock, where a loaded
 * machine cannot stretch it.
 *
 * A failure prints the seed and path that replay it: `LEASE_MODEL_SEED=… LEASE_MODEL_PATH=… npx vitest run
 * test/lib/coordination/lease-model.test.ts`. `LEASE_MODEL_RUNS` sets how many fleets are drawn.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/lib/clock.js';
import { memoryLease } from '../../../src/lib/coordination/lease.js';
import { connectRedis, type RedisClient } from '../../../src/lib/coordination/redis-client.js';
import { redisLease } from '../../../src/lib/coordination/redis-lease.js';
import { redisReplicaRegistry } from '../../../src/lib/coordination/redis-replica-registry.js';
import { memoryReplicaRegistry } from '../../../src/lib/coordination/replica-registry.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type RedisServer, redisUnavailableReason, startRedisServer } from '../../support/redis-server.js';
import {
  type ClockSkew,
  type FleetEvent,
  type ModelBackend,
  type ModelRun,
  type ModelTiming,
  runFleetModel,
  type Scenario,
} from './lease-model.js';

/** Fleets drawn per `npm test` run (LEASE_MODEL_RUNS overrides both): about 0.3 s each on memory, 10 s on Redis. */
const memoryRuns = Number(process.env.LEASE_MODEL_RUNS ?? 30);
const redisRuns = Number(process.env.LEASE_MODEL_RUNS ?? 2);

/** Fleets on a time scale: `unit` is the TTL; events fall in the first 10 TTLs, pauses last up to 3. */
function scenarios(ttlMs: number): fc.Arbitrary<Scenario> {
  const skew: fc.Arbitrary<ClockSkew> = fc.record({
    offsetMs: fc.integer({ min: -120_000, max: 120_000 }),
    // NTP keeps clocks far closer; 2 % either way is a clock gone wrong.
    rate: fc.double({ min: 0.98, max: 1.02, noNaN: true }),
  });
  const at = fc.integer({ min: 0, max: 10 * ttlMs });
  const victim = fc.nat({ max: 7 });
  const event: fc.Arbitrary<FleetEvent> = fc.oneof(
    fc.record({ at, kind: fc.constant('join' as const), skew }),
    fc.record({ at, kind: fc.constantFrom('death' as const, 'leave' as const), victim }),
    fc.record({
      at,
      kind: fc.constant('pause' as const),
      victim,
      forMs: fc.integer({ min: ttlMs / 10, max: 3 * ttlMs }),
    }),
  );
  return fc.record({
    projects: fc.integer({ min: 1, max: 16 }),
    initial: fc.array(skew, { minLength: 1, maxLength: 4 }),
    events: fc.array(event, { maxLength: 8 }),
  });
}

/** Fencing: per project, one replica per token (a tenure), and the tokens of landed writes never decrease. */
function expectFenced(run: ModelRun): void {
  const writerOf = new Map<string, string>();
  const lastToken = new Map<string, number>();
  for (const write of run.landed) {
    const tenure = `${write.project} token ${write.token}`;
    expect(writerOf.get(tenure) ?? write.replica, `${tenure} written by two replicas`).toBe(write.replica);
    writerOf.set(tenure, write.replica);
    expect(write.token, `${write.project} written with an older token`).toBeGreaterThanOrEqual(
      lastToken.get(write.project) ?? 0,
    );
    lastToken.set(write.project, write.token);
  }
}

/** Settled: every project held, nobody above ceil(projects / running replicas). */
function expectShares(run: ModelRun): void {
  expect(run.settled.unheld, 'projects nobody holds after the fleet settled').toEqual([]);
  const share = Math.ceil(run.projects.length / run.settled.held.length);
  expect(Math.max(...run.settled.held), `a replica above its share of ${share}`).toBeLessThanOrEqual(share);
}

/** Runs the property and, when it fails, says how to replay the counterexample. */
async function checkFleets(
  property: fc.IAsyncProperty<[Scenario]>,
  runs: number,
  name: string,
): Promise<void> {
  const seed = process.env.LEASE_MODEL_SEED;
  const path = process.env.LEASE_MODEL_PATH;
  const details = await fc.check(property, {
    numRuns: runs,
    ...(seed !== undefined ? { seed: Number(seed) } : {}),
    ...(path !== undefined ? { path } : {}),
  });
  if (!details.failed) return;
  throw new Error(
    `${name}: ${fc.defaultReportMessage(details) ?? 'failed'}\n${String(details.errorInstance)}\nreplay: LEASE_MODEL_SEED=${details.seed} LEASE_MODEL_PATH=${details.counterexamplePath ?? ''} npx vitest run test/lib/coordination/lease-model.test.ts`,
  );
}

/** One fleet on memory leases and a virtual clock. */
async function onMemory(scenario: Scenario, timing: ModelTiming): Promise<ModelRun> {
  const clock = new ManualClock(Date.UTC(2026, 2, 1));
  const backend: ModelBackend = {
    clock,
    lease: (target) => memoryLease(clock, target),
    registry: memoryReplicaRegistry(clock),
    prefix: '',
    async advance(ms) {
      // Time moves in small steps, each followed by every continuation it woke (the lease is in memory).
      const until = clock.now() + ms;
      do {
        clock.set(Math.min(until, clock.now() + 10));
        for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      } while (clock.now() < until);
    },
  };
  return runFleetModel(backend, scenario, timing);
}

/** The longest any project went unpolled in `run`. */
const worstGap = (run: ModelRun) => Math.max(...run.longestUncoveredMs.values());

describe('the lease balancer on memory leases, a virtual clock and random fleets', () => {
  const timing: ModelTiming = {
    ttlMs: 3_000,
    joinStepMs: 1_000,
    writeEveryMs: 500,
    stepMs: 50,
    settleMs: 15_000,
  };
  // A tick is a third of the TTL on a replica's clock, up to 2 % slower in true time; the model looks every step.
  const tickMs = timing.ttlMs / 3 / 0.98;

  it(
    'fences every write, leaves no project unpolled past a TTL plus two ticks, and settles to fair shares',
    async () => {
      // One tick more than a single fault needs (below): when a second replica dies or freezes within a tick of
      // the first one's lease running out, the plan may give the project to it, and nobody can tell yet that it
      // will not take it; the next tick of anyone takes a project still free (assign-share.ts).
      const boundMs = timing.ttlMs + 2 * tickMs + timing.stepMs;
      await checkFleets(
        fc.asyncProperty(scenarios(timing.ttlMs), async (scenario) => {
          const run = await onMemory(scenario, timing);
          expectFenced(run);
          expect(
            worstGap(run),
            'a project unpolled past a lease lifetime plus two ticks',
          ).toBeLessThanOrEqual(boundMs);
          expectShares(run);
        }),
        memoryRuns,
        'memory leases',
      );
    },
    60_000 + memoryRuns * 2_000,
  );

  it(
    'takes over one death or pause of a settled fleet within a lease lifetime plus a tick',
    async () => {
      const boundMs = timing.ttlMs + tickMs + timing.stepMs;
      const oneFault: fc.Arbitrary<Scenario> = fc.record({
        projects: fc.integer({ min: 1, max: 16 }),
        initial: fc.array(
          fc.record({
            offsetMs: fc.integer({ min: -60_000, max: 60_000 }),
            rate: fc.double({ min: 0.98, max: 1.02, noNaN: true }),
          }),
          { minLength: 2, maxLength: 4 },
        ),
        events: fc
          .record({
            at: fc.integer({ min: 8 * timing.ttlMs, max: 9 * timing.ttlMs }),
            kind: fc.constantFrom('death' as const, 'pause' as const),
            victim: fc.nat({ max: 7 }),
            forMs: fc.integer({ min: timing.ttlMs / 10, max: 3 * timing.ttlMs }),
          })
          .map((e): FleetEvent[] => [e.kind === 'death' ? { at: e.at, kind: 'death', victim: e.victim } : e]),
      });
      await checkFleets(
        fc.asyncProperty(oneFault, async (scenario) => {
          // The fleet settles for 8 TTLs (spread, grace, releases); the fault is the only thing after that.
          const run = await onMemory(scenario, timing);
          expectFenced(run);
          expect(worstGap(run), 'a project unpolled past a lease lifetime plus a tick').toBeLessThanOrEqual(
            boundMs,
          );
        }),
        Math.ceil(memoryRuns / 2),
        'one fault',
      );
    },
    60_000 + memoryRuns * 2_000,
  );
});

const redisSkip = redisUnavailableReason();
describe.skipIf(redisSkip !== undefined)('the lease balancer on a real redis-server, real time', () => {
  if (redisSkip !== undefined) console.warn(`lease model on Redis skipped: ${redisSkip}`);
  let server: RedisServer;
  let client: RedisClient;
  let runs = 0;
  beforeAll(async () => {
    server = await startRedisServer();
    client = await connectRedis(server.url, () => {});
  });
  afterAll(async () => {
    client?.destroy();
    await server?.stop();
  });

  it(
    'fences every write and settles to fair shares with the Lua scripts',
    async () => {
      const timing: ModelTiming = {
        ttlMs: 600,
        joinStepMs: 200,
        writeEveryMs: 100,
        stepMs: 50,
        settleMs: 4_000,
      };
      await checkFleets(
        fc.asyncProperty(scenarios(timing.ttlMs), async (scenario) => {
          runs += 1;
          const prefix = `model${runs}:`;
          const backend: ModelBackend = {
            clock: systemClock,
            lease: () => redisLease(client, { prefix: `${prefix}lease:` }),
            registry: redisReplicaRegistry(client, { key: `${prefix}replicas` }),
            prefix,
            advance: (ms) => systemClock.sleep(ms),
          };
          // The Redis lease writes the data keys itself: what landed is read from the fence's answers instead.
          const run = await runFleetModel(withLandedFromRedis(backend), scenario, timing);
          expectFenced(run);
          expectShares(run);
        }),
        redisRuns,
        'redis leases',
      );
    },
    60_000 + redisRuns * 20_000,
  );
});

/**
 * On Redis the fenced script writes the data key in Redis, not through the model's target: each write the
 * script accepted is recorded when its answer comes back. One connection answers in the order Redis ran the
 * scripts, so the record keeps the order they landed in.
 */
function withLandedFromRedis(backend: ModelBackend): ModelBackend {
  return {
    ...backend,
    lease(target) {
      const lease = backend.lease(target);
      return {
        ...lease,
        async fencedSetAll(resource, token, entries) {
          const written = await lease.fencedSetAll(resource, token, entries);
          if (written) for (const entry of entries) await target.set(entry.key, entry.value);
          return written;
        },
      };
    },
  };
}
