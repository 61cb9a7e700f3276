import type { Clock } from '../clock.js';
import { assignShare } from './assign-share.js';
import { DEFAULT_LEASE_TTL_MS, type Lease } from './lease.js';
import type { ReplicaRegistry } from './replica-registry.js';

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
  readonly #tenures = new Map<string, Tenure>();
  #overShareSince: number | undefined;

  constructor(options: LeaseBalancerOptions) {
    this.#options = options;
    this.#ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    this.#graceMs = options.releaseGraceMs ?? this.#ttlMs;
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

  /** One balancing step. Throws when Redis fails; the held leases then age out per {@link held}. */
  async tick(): Promise<BalanceReport> {
    const { self, lease, registry, clock } = this.#options;
    const projects = [...new Set(this.#options.projects())];
    const listed = new Set(projects);
    // Beats expire after 2/3 of a lease TTL: a dead replica leaves the count before its leases free up, so the
    // survivors' shares already cover its projects when they become free.
    const replicas = await registry.heartbeat(self, Math.floor((this.#ttlMs * 2) / 3));

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
    const decision = assignShare({ self, replicas, projects, holders });

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
    };
  }

  /** Ticks every TTL/3 until `signal` aborts, then releases every lease and leaves the registry. */
  async run(signal: AbortSignal, onTick?: (report: BalanceReport) => void): Promise<void> {
    while (!signal.aborted) {
      try {
        const report = await this.tick();
        onTick?.(report);
      } catch (error) {
        this.#options.onError?.(error);
      }
      try {
        await this.#options.clock.sleep(this.intervalMs, signal);
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
