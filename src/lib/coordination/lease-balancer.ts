import type { Clock } from '../clock.js';
import { assignShare } from './assign-share.js';
import { DEFAULT_LEASE_TTL_MS, type Lease } from './lease.js';
import type { ReplicaRegistry } from './replica-registry.js';

/** How often a joining replica looks at the fleet and the claims (its join step is how long the fleet must not change). */
const JOIN_LOOK_MS = 250;

export interface LeaseBalancerOptions {
  readonly self: string;
  readonly lease: Lease;
  readonly registry: ReplicaRegistry;
  readonly clock: Clock;
  /** The projects to spread; read at every tick, so projects added or removed are picked up. */
  readonly projects: () => readonly string[];
  /** Lease TTL; default 30 s. Ticks run every TTL/3, so a holder survives one missed renewal. */
  readonly ttlMs?: number;
  /**
   * How long a replica stays above its share before it gives up the excess; default one TTL. It keeps the
   * spread from flapping while replicas start or beat late, at the cost of a newcomer waiting this long.
   */
  readonly releaseGraceMs?: number;
  /**
   * The step of {@link LeaseBalancer.join} (how long the live replicas must stay the same before the first
   * claim), and the wait before the next tick after one lost projects to another replica's claim; default 1 s.
   */
  readonly joinStepMs?: number;
  /** The longest {@link LeaseBalancer.join} waits for replicas still coming; default a third of the TTL. */
  readonly joinMaxMs?: number;
  /** Called when a tick fails (Redis unreachable): the loop goes on and retries at the next tick. */
  readonly onError?: (error: unknown) => void;
}

/** What a tick changed, for logs, metrics and `/healthz`. */
export interface BalanceReport {
  /** Projects held after the tick, with their fencing tokens. */
  readonly held: ReadonlyMap<string, number>;
  readonly acquired: readonly string[];
  readonly released: readonly string[];
  /** Held before, but another replica has them now (this replica paused or Redis restarted). */
  readonly lost: readonly string[];
  /** Live replicas and the share this replica aimed at. */
  readonly replicas: number;
  readonly share: number;
  /**
   * Below its share after losing projects it reached for to another replica's claim in the same moment: the
   * next tick comes after a join step, not a third of the TTL, so the leftovers do not wait 10 s to be polled.
   */
  readonly contended: boolean;
}

interface Tenure {
  readonly token: number;
  /** Clock time of the last successful acquire/renew: the lease is ours until this + TTL at the latest. */
  readonly renewedAt: number;
}

/**
 * Spreads project leases fairly over the live replicas. Every tick (TTL/3) it beats the replica registry,
 * renews the leases it holds, reads who holds what, and acquires or releases per {@link assignShare}.
 *
 * The engine polls the projects of {@link LeaseBalancer.held} and commits with their tokens; it need not renew
 * them itself. Cost per tick and replica: one heartbeat script, one `holders` script for all projects, one
 * acquire script per held or wanted project (pipelined by node-redis), one release per given-up project.
 */
export class LeaseBalancer {
  readonly #options: LeaseBalancerOptions;
  readonly #ttlMs: number;
  readonly #graceMs: number;
  readonly #joinStepMs: number;
  readonly #joinMaxMs: number;
  readonly #tenures = new Map<string, Tenure>();
  /** Projects free at the previous tick: still free now, the replica meant to take them did not (assignShare). */
  #freeAtLastTick = new Set<string>();
  #overShareSince: number | undefined;

  constructor(options: LeaseBalancerOptions) {
    this.#options = options;
    this.#ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    this.#graceMs = options.releaseGraceMs ?? this.#ttlMs;
    this.#joinStepMs = options.joinStepMs ?? 1_000;
    this.#joinMaxMs = options.joinMaxMs ?? this.intervalMs;
  }

  /** Ticks run this often: a third of the TTL. */
  get intervalMs(): number {
    return Math.max(1, Math.floor(this.#ttlMs / 3));
  }

  /**
   * Projects this replica holds now, with their tokens. A lease not renewed within the TTL (Redis unreachable)
   * is left out even before a tick notices: another replica may have it already.
   */
  held(): Map<string, number> {
    const now = this.#options.clock.now();
    const held = new Map<string, number>();
    for (const [project, tenure] of this.#tenures) {
      if (now - tenure.renewedAt < this.#ttlMs) held.set(project, tenure.token);
    }
    return held;
  }

  /** The token of `project` while this replica holds it (as {@link held} says, without copying every lease). */
  tokenOf(project: string): number | undefined {
    const tenure = this.#tenures.get(project);
    if (tenure === undefined || this.#options.clock.now() - tenure.renewedAt >= this.#ttlMs) return undefined;
    return tenure.token;
  }

  /**
   * Waits, before the first tick, for the replicas of a fleet starting together to see each other: beats the
   * registry until the live replicas stayed the same for one join step (at most `joinMaxMs`). Without it the
   * first replica up saw itself alone, claimed every project and held the others' shares for the release grace
   * (bench scaleRedis: a replica started 0.5 s before the others held all 3,000 and the others polled nothing
   * for 30 s). Kafka's consumer groups wait the same way before their first rebalance
   * (`group.initial.rebalance.delay.ms`). Returns at once when any project is held: a replica joining a running
   * fleet, or one whose fleet-mates already claimed while it waited, has no claim to race for. Cost: one
   * `holders` script, then a heartbeat and a `holders` script every 250 ms (1 s for a lone replica).
   */
  async join(signal?: AbortSignal): Promise<void> {
    const { self, lease, registry, clock } = this.#options;
    const claimed = async () => (await lease.holders([...new Set(this.#options.projects())])).size > 0;
    if (await claimed()) return;
    const deadline = clock.now() + this.#joinMaxMs;
    const lookMs = Math.min(JOIN_LOOK_MS, this.#joinStepMs);
    let live = (await registry.heartbeat(self, this.#beatTtlMs)).join(' ');
    let sameSince = clock.now();
    while (clock.now() < deadline) {
      await clock.sleep(Math.min(lookMs, deadline - clock.now()), signal);
      const now = (await registry.heartbeat(self, this.#beatTtlMs)).join(' ');
      if (now !== live) [live, sameSince] = [now, clock.now()];
      else if (clock.now() - sameSince >= this.#joinStepMs) return;
      // Another replica saw a stable fleet with this one in it and took its share: nothing left to wait for
      // (bench scaleRedis: the replicas that saw the last one arrive waited a step longer, their 2,000
      // projects unpolled while the first replica's 1,000 were).
      if (await claimed()) return;
    }
  }

  /**
   * Beats expire after 2/3 of a lease TTL: a dead replica leaves the count before its leases free up, so the
   * survivors' shares already cover its projects when they become free.
   */
  get #beatTtlMs(): number {
    return Math.floor((this.#ttlMs * 2) / 3);
  }

  /** One balancing step. Throws when Redis fails; the held leases then age out per {@link held}. */
  async tick(): Promise<BalanceReport> {
    const { self, lease, registry, clock } = this.#options;
    const projects = [...new Set(this.#options.projects())];
    const listed = new Set(projects);
    const replicas = await registry.heartbeat(self, this.#beatTtlMs);

    const released: string[] = [];
    const unlisted = [...this.#tenures.keys()].filter((project) => !listed.has(project));
    await Promise.all(unlisted.map((project) => this.#release(project, released)));

    const lost: string[] = [];
    await Promise.all(
      [...this.#tenures.keys()].map(async (project) => {
        const startedAt = clock.now();
        const grant = await lease.acquire(project, self, this.#ttlMs);
        if (grant === null) {
          this.#tenures.delete(project);
          lost.push(project);
        } else {
          this.#tenures.set(project, { token: grant.token, renewedAt: startedAt });
        }
      }),
    );

    const holders = new Map<string, string>();
    for (const [project, holder] of await lease.holders(projects)) holders.set(project, holder.holder);
    const free = projects.filter((project) => !holders.has(project));
    const stillFree = free.filter((project) => this.#freeAtLastTick.has(project));
    this.#freeAtLastTick = new Set(free);
    const decision = assignShare({ self, replicas, projects, holders, stillFree });

    const acquired: string[] = [];
    await Promise.all(
      decision.acquire.map(async (project) => {
        const startedAt = clock.now();
        const grant = await lease.acquire(project, self, this.#ttlMs);
        if (grant === null) return; // another replica was faster: it is below its share too
        this.#tenures.set(project, { token: grant.token, renewedAt: startedAt });
        acquired.push(project);
      }),
    );

    if (decision.excess.length === 0) {
      this.#overShareSince = undefined;
    } else {
      this.#overShareSince ??= clock.now();
      if (clock.now() - this.#overShareSince >= this.#graceMs) {
        await Promise.all(decision.excess.map((project) => this.#release(project, released)));
        this.#overShareSince = undefined;
      }
    }
    return {
      held: this.held(),
      acquired: acquired.sort(),
      released: released.sort(),
      lost: lost.sort(),
      replicas: replicas.length,
      share: decision.share,
      contended: acquired.length < decision.acquire.length && this.#tenures.size < decision.share,
    };
  }

  /** Ticks every TTL/3 until `signal` aborts, then releases every lease and leaves the registry. */
  async run(signal: AbortSignal, onTick?: (report: BalanceReport) => void): Promise<void> {
    while (!signal.aborted) {
      let contended = false;
      try {
        const report = await this.tick();
        contended = report.contended;
        onTick?.(report);
      } catch (error) {
        this.#options.onError?.(error);
      }
      try {
        await this.#options.clock.sleep(contended ? this.#joinStepMs : this.intervalMs, signal);
      } catch {
        break; // aborted
      }
    }
    await this.stop();
  }

  /** A clean shutdown: gives every lease back and leaves the registry, so the others take over at once. */
  async stop(): Promise<void> {
    await Promise.all([...this.#tenures.keys()].map((project) => this.#release(project, [])));
    await this.#options.registry.leave(this.#options.self);
  }

  async #release(project: string, released: string[]): Promise<void> {
    this.#tenures.delete(project);
    await this.#options.lease.release(project, this.#options.self);
    released.push(project);
  }
}
