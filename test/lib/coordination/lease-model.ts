/**
 * A model of a replica fleet for the lease balancer's property test (lease-model.test.ts): the real
 * `LeaseBalancer` run loops, on the real lease and registry (memory, or a real redis-server), one per replica,
 * each on its own skewed clock, with a writer per replica that commits the state of every project it believes
 * it holds through the lease's fence. Replicas join, die (no goodbye: their loops never wake again), pause
 * (their clocks wake nobody until they resume) and leave cleanly. What the fleet did is recorded from the
 * outside: every write the fence let through, in the order it landed, and at every step which projects a
 * running replica holds with the lease's current token (it can poll them and commit).
 */
import type { Clock } from '../../../src/lib/clock.js';
import type { FencedWriteTarget, Lease } from '../../../src/lib/coordination/lease.js';
import { LeaseBalancer } from '../../../src/lib/coordination/lease-balancer.js';
import type { ReplicaRegistry } from '../../../src/lib/coordination/replica-registry.js';

/** A replica's clock against the true one: an offset and a rate (1.01 runs 1 % fast). */
export interface ClockSkew {
  readonly offsetMs: number;
  readonly rate: number;
}

export type FleetEvent =
  | { readonly at: number; readonly kind: 'join'; readonly skew: ClockSkew }
  /** `victim` picks among the replicas running at that moment (modulo their number). */
  | { readonly at: number; readonly kind: 'death' | 'leave'; readonly victim: number }
  | { readonly at: number; readonly kind: 'pause'; readonly victim: number; readonly forMs: number };

export interface Scenario {
  readonly projects: number;
  /** The replicas that start together at time 0. */
  readonly initial: readonly ClockSkew[];
  readonly events: readonly FleetEvent[];
}

/** The timing of the fleet under test: the balancer's TTL, join step, and how often a replica commits. */
export interface ModelTiming {
  readonly ttlMs: number;
  readonly joinStepMs: number;
  readonly writeEveryMs: number;
  /** How often the model looks at who holds what (and lets time pass). */
  readonly stepMs: number;
  /** Time after the last event for the fleet to settle before the share is judged. */
  readonly settleMs: number;
}

/** Where the fleet meets: the lease and registry it shares, and the true clock (the server's). */
export interface ModelBackend {
  readonly clock: Clock;
  lease(target: FencedWriteTarget): Lease;
  readonly registry: ReplicaRegistry;
  /** Lets `ms` of true time pass, with everything due in it run. */
  advance(ms: number): Promise<void>;
  /** A prefix for the lease keys and data keys of one run (a shared server outlives runs). */
  readonly prefix: string;
}

export interface LandedWrite {
  readonly project: string;
  readonly replica: string;
  readonly token: number;
  readonly at: number;
}

export interface ModelRun {
  readonly projects: readonly string[];
  /** Every write the fence let through, in the order it landed. */
  readonly landed: readonly LandedWrite[];
  /** Per project, the longest stretch no running replica held it with the current token (while any ran). */
  readonly longestUncoveredMs: ReadonlyMap<string, number>;
  /** After the fleet settled: projects held per running replica, and the projects nobody held. */
  readonly settled: { readonly held: readonly number[]; readonly unheld: readonly string[] };
  readonly endedAt: number;
}

type State = 'running' | 'paused' | 'dead' | 'left';

/** A replica's clock: skewed against the true one; a paused replica wakes at its resume, a dead one never. */
class ReplicaClock implements Clock {
  state: State = 'running';
  resumeAt = 0;
  readonly #origin: number;

  constructor(
    private readonly truth: Clock,
    private readonly skew: ClockSkew,
  ) {
    this.#origin = truth.now();
  }

  now(): number {
    return this.#origin + this.skew.offsetMs + (this.truth.now() - this.#origin) * this.skew.rate;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    await this.truth.sleep(Math.max(0, ms) / this.skew.rate, signal);
    for (;;) {
      if (this.state === 'dead') await never(signal);
      else if (this.state === 'paused' && this.truth.now() < this.resumeAt)
        await this.truth.sleep(this.resumeAt - this.truth.now(), signal);
      else return;
    }
  }
}

/** A dead process never wakes: settles only when the model ends the run (the signal aborts). */
function never(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    if (signal?.aborted) reject(signal.reason);
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

interface Replica {
  readonly id: string;
  readonly clock: ReplicaClock;
  readonly balancer: LeaseBalancer;
  readonly stop: AbortController;
}

/** Runs `scenario` on `backend`; resolves with what the fleet did. */
export async function runFleetModel(
  backend: ModelBackend,
  scenario: Scenario,
  timing: ModelTiming,
): Promise<ModelRun> {
  const { clock } = backend;
  const projects = Array.from({ length: scenario.projects }, (_, i) => `${backend.prefix}p${i}`);
  const landed: LandedWrite[] = [];
  // The fence's target records a write at the moment it lands (its value names the writer and its token).
  const lease = backend.lease({
    async set(key, value) {
      const [replica = '', token = '0'] = value.split(' ');
      landed.push({ project: key, replica, token: Number(token), at: clock.now() });
    },
  });
  const replicas: Replica[] = [];
  const tasks: Promise<unknown>[] = [];
  const start = (skew: ClockSkew) => {
    const id = `${backend.prefix}r${replicas.length}`;
    const replicaClock = new ReplicaClock(clock, skew);
    const balancer = new LeaseBalancer({
      self: id,
      lease,
      registry: backend.registry,
      clock: replicaClock,
      projects: () => projects,
      ttlMs: timing.ttlMs,
      joinStepMs: timing.joinStepMs,
    });
    const replica: Replica = { id, clock: replicaClock, balancer, stop: new AbortController() };
    replicas.push(replica);
    const { signal } = replica.stop;
    tasks.push(
      balancer
        .join(signal)
        .then(() => balancer.run(signal))
        .catch(() => {}),
      // The engine's commits: every project it believed it held when its poll began, through the fence with
      // that token, after the poll's time (a pause can fall in it: the fence alone must stop a stale commit).
      (async () => {
        while (!signal.aborted) {
          await replicaClock.sleep(timing.writeEveryMs / 2, signal);
          const polled = [...balancer.held()];
          await replicaClock.sleep(timing.writeEveryMs / 2, signal);
          for (const [project, token] of polled) {
            // The data key is the project itself, so `landed` names it; one write per commit.
            await lease.fencedSetAll(project, token, [{ key: project, value: `${id} ${token}` }]);
          }
        }
      })().catch(() => {}),
    );
  };
  for (const skew of scenario.initial) start(skew);

  const running = () => replicas.filter((r) => r.clock.state === 'running');
  const events = [...scenario.events].sort((a, b) => a.at - b.at);
  const lastEventEnd = Math.max(0, ...events.map((e) => (e.kind === 'pause' ? e.at + e.forMs : e.at)));
  const origin = clock.now();
  const endAt = origin + lastEventEnd + timing.settleMs;
  const lastCovered = new Map(projects.map((p) => [p, origin]));
  const longest = new Map(projects.map((p) => [p, 0]));

  while (clock.now() < endAt) {
    const now = clock.now() - origin;
    while (events.length > 0 && (events[0]?.at ?? Number.POSITIVE_INFINITY) <= now) {
      apply(events.shift() as FleetEvent);
    }
    for (const r of replicas)
      if (r.clock.state === 'paused' && clock.now() >= r.clock.resumeAt) r.clock.state = 'running';
    await backend.advance(timing.stepMs);
    // Who can poll and commit each project now: a running replica holding it with the lease's current token.
    const holders = await lease.holders(projects);
    const anyRunning = running().length > 0;
    for (const project of projects) {
      const holder = holders.get(project);
      const owner = holder && replicas.find((r) => r.id === holder.holder);
      const covered =
        owner !== undefined &&
        owner.clock.state === 'running' &&
        owner.balancer.tokenOf(project) === holder?.token;
      if (covered || !anyRunning) lastCovered.set(project, clock.now());
      longest.set(
        project,
        Math.max(longest.get(project) ?? 0, clock.now() - (lastCovered.get(project) ?? 0)),
      );
    }
  }

  const holders = await lease.holders(projects);
  const settled = {
    held: running().map((r) => [...holders.values()].filter((h) => h.holder === r.id).length),
    unheld: projects.filter((p) => !holders.has(p)),
  };
  // Ends every loop: a dead or paused replica's sleep rejects on its abort like a running one's.
  for (const r of replicas) r.stop.abort();
  await backend.advance(0);
  return { projects, landed, longestUncoveredMs: longest, settled, endedAt: clock.now() };

  function apply(event: FleetEvent): void {
    if (event.kind === 'join') {
      start(event.skew);
      return;
    }
    const candidates = running();
    // Never the last running replica: the bounds are about a fleet that still has someone to take over.
    if (candidates.length <= 1) return;
    const victim = candidates[event.victim % candidates.length] as Replica;
    if (event.kind === 'pause') {
      victim.clock.state = 'paused';
      victim.clock.resumeAt = clock.now() + event.forMs;
    } else if (event.kind === 'death') {
      victim.clock.state = 'dead';
    } else {
      victim.clock.state = 'left';
      victim.stop.abort();
    }
  }
}
