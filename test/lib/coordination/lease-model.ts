/**
 * A model of a replica fleet for the lease balancer's property test (lease-model.test.ts): the real
 * `LeaseBalancer` run loops, on the real lease, registry and connection watch (memory, or a real redis-server),
 * one per replica, each on its own skewed clock and its own link to the store, with a writer per replica that
 * commits the state of every project it believes it holds through the lease's fence. Replicas join, die (kill -9:
 * their loops never wake again and their link closes), hang (their loops never wake again, their link stays
 * open: a frozen process, a machine gone without a word), pause (their clocks wake nobody until they resume, the
 * link stays open), lose their link for a moment (a blip: their calls fail, the others see the connection gone)
 * and leave cleanly. What the fleet did is recorded from the outside: every write the fence let through, in the
 * order it landed, and at every step which projects a running replica holds with the lease's current token (it
 * can poll them and commit).
 */
import type { Clock } from '../../../src/lib/clock.js';
import type { ConnectionWatch } from '../../../src/lib/coordination/connection-watch.js';
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
  | { readonly at: number; readonly kind: 'death' | 'hang' | 'leave'; readonly victim: number }
  | { readonly at: number; readonly kind: 'pause' | 'blip'; readonly victim: number; readonly forMs: number };

export interface Scenario {
  readonly projects: number;
  /** The replicas that start together at time 0. */
  readonly initial: readonly ClockSkew[];
  readonly events: readonly FleetEvent[];
}

/** The timing of the fleet under test: the balancer's TTL, join step, and how often a replica commits. */
export interface ModelTiming {
  readonly ttlMs: number;
  /**
   * The beat TTL, the look, and the reconnect grace and settle time of the connection watch, on the model's
   * time scale.
   */
  readonly beatTtlMs: number;
  readonly lookMs: number;
  readonly graceMs: number;
  readonly reconnectSettleMs: number;
  readonly joinStepMs: number;
  readonly writeEveryMs: number;
  /** How often the model looks at who holds what (and lets time pass). */
  readonly stepMs: number;
  /** Time after the last event for the fleet to settle before the share is judged. */
  readonly settleMs: number;
}

/**
 * One replica's link to the store: the lease, registry and connection watch its balancer uses (over its own
 * connection), which fail while the link is down.
 */
export interface ReplicaLink {
  readonly lease: Lease;
  readonly registry: ReplicaRegistry;
  readonly connections: ConnectionWatch;
  /** kill -9: the kernel closes the connection, for good. */
  close(): Promise<void>;
  /** A blip: the connection drops; `up(true)` when it is back (on Redis node-redis reconnects by itself). */
  up(isUp: boolean): Promise<void>;
}

/** Where the fleet meets: the lease and registry it shares, and the true clock (the server's). */
export interface ModelBackend {
  readonly clock: Clock;
  /**
   * The fenced writes of every replica's writer, through one connection, so the record of what landed keeps
   * the order Redis ran them in.
   */
  lease(target: FencedWriteTarget): Lease;
  /** Opens the link of replica `id`, whose watch judges absences on `clock` (the replica's own). */
  link(id: string, clock: Clock, graceMs: number, writes: Lease): Promise<ReplicaLink>;
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

/** A replica found dead by another, as its balancer reported it. */
export interface SeenDeath {
  readonly replica: string;
  readonly cause: 'connection' | 'beat';
  readonly by: string;
  /** When it was reported, in true time from the start of the run. */
  readonly at: number;
}

export interface ModelRun {
  readonly projects: readonly string[];
  /** Every death a replica reported, in the order they were reported. */
  readonly deaths: readonly SeenDeath[];
  /** Every write the fence let through, in the order it landed. */
  readonly landed: readonly LandedWrite[];
  /** Per project, the longest stretch no running replica held it with the current token (while any ran). */
  readonly longestUncoveredMs: ReadonlyMap<string, number>;
  /** Every such stretch, in true time from the start of the run. */
  readonly uncovered: readonly { readonly project: string; readonly from: number; readonly to: number }[];
  /** After the fleet settled: projects held per running replica, and the projects nobody held. */
  readonly settled: { readonly held: readonly number[]; readonly unheld: readonly string[] };
  readonly endedAt: number;
}

type State = 'running' | 'paused' | 'dead' | 'left';

/** `target` with every method failing while `isUp()` says no: a replica's calls over a link that is down. */
export function whileUp<T extends object>(target: T, isUp: () => boolean): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        if (!isUp()) throw new Error('the link to the store is down');
        return (value as (...a: unknown[]) => unknown).apply(object, args);
      };
    },
  });
}

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
  readonly link: ReplicaLink;
  readonly stop: AbortController;
  /** While a blip lasts (true time): the link comes back at this moment. */
  linkDownUntil?: number | undefined;
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
  const deaths: SeenDeath[] = [];
  const tasks: Promise<unknown>[] = [];
  const start = async (skew: ClockSkew) => {
    const id = `${backend.prefix}r${replicas.length}`;
    const replicaClock = new ReplicaClock(clock, skew);
    const link = await backend.link(id, replicaClock, timing.graceMs, lease);
    const balancer = new LeaseBalancer({
      self: id,
      lease: link.lease,
      registry: link.registry,
      connections: link.connections,
      clock: replicaClock,
      projects: () => projects,
      ttlMs: timing.ttlMs,
      beatTtlMs: timing.beatTtlMs,
      lookMs: timing.lookMs,
      reconnectSettleMs: timing.reconnectSettleMs,
      joinStepMs: timing.joinStepMs,
    });
    const replica: Replica = { id, clock: replicaClock, balancer, link, stop: new AbortController() };
    replicas.push(replica);
    const { signal } = replica.stop;
    tasks.push(
      // As start-replicas.ts does: a join that failed (the link down) goes on to balance all the same.
      balancer
        .join(signal)
        .catch(() => {})
        .then(() =>
          balancer.run(signal, (report) => {
            for (const d of report.deaths)
              deaths.push({ replica: d.replica, cause: d.cause, by: id, at: clock.now() });
          }),
        )
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
  for (const skew of scenario.initial) await start(skew);

  const running = () => replicas.filter((r) => r.clock.state === 'running');
  const events = [...scenario.events].sort((a, b) => a.at - b.at);
  const lastEventEnd = Math.max(
    0,
    ...events.map((e) => (e.kind === 'pause' || e.kind === 'blip' ? e.at + e.forMs : e.at)),
  );
  const origin = clock.now();
  const endAt = origin + lastEventEnd + timing.settleMs;
  const lastCovered = new Map(projects.map((p) => [p, origin]));
  const longest = new Map(projects.map((p) => [p, 0]));
  const uncovered: { project: string; from: number; to: number }[] = [];
  /** Projects uncovered at the last step: a stretch is open. */
  const open = new Set<string>();

  while (clock.now() < endAt) {
    const now = clock.now() - origin;
    while (events.length > 0 && (events[0]?.at ?? Number.POSITIVE_INFINITY) <= now) {
      await apply(events.shift() as FleetEvent);
    }
    for (const r of replicas) {
      if (r.clock.state === 'paused' && clock.now() >= r.clock.resumeAt) r.clock.state = 'running';
      if (r.linkDownUntil !== undefined && clock.now() >= r.linkDownUntil) {
        r.linkDownUntil = undefined;
        if (r.clock.state !== 'dead' && r.clock.state !== 'left') await r.link.up(true);
      }
    }
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
      if (covered || !anyRunning) {
        // A stretch ends: it lasted from the last step it was covered to this one.
        if (open.delete(project)) {
          const since = lastCovered.get(project) ?? origin;
          uncovered.push({ project, from: since - origin, to: clock.now() - origin });
        }
        lastCovered.set(project, clock.now());
      } else {
        open.add(project);
      }
      longest.set(
        project,
        Math.max(longest.get(project) ?? 0, clock.now() - (lastCovered.get(project) ?? 0)),
      );
    }
  }

  const lastStepAt = clock.now();
  const holders = await lease.holders(projects);
  const settled = {
    held: running().map((r) => [...holders.values()].filter((h) => h.holder === r.id).length),
    unheld: projects.filter((p) => !holders.has(p)),
  };
  // Ends every loop: a dead or paused replica's sleep rejects on its abort like a running one's.
  for (const r of replicas) r.stop.abort();
  await backend.advance(0);
  await Promise.all(tasks);
  for (const r of replicas) await r.link.close();
  // Stretches still open at the end count up to it.
  for (const project of open) {
    const since = lastCovered.get(project) ?? origin;
    uncovered.push({ project, from: since - origin, to: lastStepAt - origin });
  }
  return {
    projects,
    deaths: deaths.map((death) => ({ ...death, at: death.at - origin })),
    landed,
    longestUncoveredMs: longest,
    uncovered,
    settled,
    endedAt: clock.now(),
  };

  async function apply(event: FleetEvent): Promise<void> {
    if (event.kind === 'join') {
      await start(event.skew);
      return;
    }
    const candidates = running();
    // Never the last running replica: the bounds are about a fleet that still has someone to take over.
    if (candidates.length <= 1) return;
    const victim = candidates[event.victim % candidates.length] as Replica;
    if (event.kind === 'pause') {
      victim.clock.state = 'paused';
      victim.clock.resumeAt = clock.now() + event.forMs;
    } else if (event.kind === 'blip') {
      if (victim.linkDownUntil !== undefined) return;
      victim.linkDownUntil = clock.now() + event.forMs;
      await victim.link.up(false);
    } else if (event.kind === 'death') {
      victim.clock.state = 'dead';
      await victim.link.close();
    } else if (event.kind === 'hang') {
      victim.clock.state = 'dead';
    } else {
      victim.clock.state = 'left';
      victim.stop.abort();
    }
  }
}
