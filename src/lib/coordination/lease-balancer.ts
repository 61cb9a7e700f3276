import type { Clock } from '../clock.js';
import { assignShare, RendezvousScores } from './assign-share.js';
import type { ConnectionWatch } from './connection-watch.js';
import { type FleetLook, FleetWatch, type ReplicaDeath } from './fleet-watch.js';
import { DEFAULT_LEASE_TTL_MS, type Lease } from './lease.js';
import type { ReplicaRegistry } from './replica-registry.js';

/**
 * A replica not heard from for this long is dead (frozen, cut off from Redis) and its leases are broken: with a
 * look a second and the engine's first poll, its projects are polled again within about 7 s. It is also how long
 * a replica may stall (GC, a loaded host, a slow Redis) before it loses its projects.
 */
export const DEFAULT_BEAT_TTL_MS = 5_000;
/** How often a replica beats and looks for dead ones. */
export const DEFAULT_LOOK_MS = 1_000;

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
  /**
   * How long a replica's beat lives ({@link DEFAULT_BEAT_TTL_MS}, at most 2/3 of the TTL): one silent for this
   * long is dead, its leases broken, whatever their TTL.
   */
  readonly beatTtlMs?: number;
  /** How often it beats and looks for dead replicas; default {@link DEFAULT_LOOK_MS}, at most a third of the beat TTL. */
  readonly lookMs?: number;
  /** Tells killed replicas by their closed connection, within seconds; without it only beats tell. */
  readonly connections?: ConnectionWatch;
  /**
   * How long after its own failed look a replica judges nobody by a closed connection (the others may still be
   * reconnecting); default RECONNECT_SETTLE_MS (3 s).
   */
  readonly reconnectSettleMs?: number;
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
  /** Replicas this replica found dead just before the tick, and the projects it freed of theirs. */
  readonly deaths: readonly ReplicaDeath[];
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
 * Spreads project leases fairly over the live replicas. Every look (a second) it beats the replica registry
 * and buries the replicas it finds dead ({@link FleetWatch}: a closed connection, a beat run out); after a
 * death or a join, and every TTL/3 anyway, it ticks: renews the leases it holds, reads who holds what, and
 * acquires or releases per {@link assignShare}.
 *
 * The engine polls the projects of {@link LeaseBalancer.held} and commits with their tokens; it need not renew
 * them itself. Cost per replica: a beat script and a CLIENT LIST a second; per tick one renewal script for all
 * of its leases, one `holders` script for all projects (both per 1,000), one acquire per wanted project.
 */
export class LeaseBalancer {
  readonly #options: LeaseBalancerOptions;
  readonly #ttlMs: number;
  readonly #graceMs: number;
  readonly #joinStepMs: number;
  readonly #joinMaxMs: number;
  readonly #lookMs: number;
  readonly #beatTtlMs: number;
  readonly #watch: FleetWatch;
  readonly #tenures = new Map<string, Tenure>();
  /** Projects free at the previous tick: still free now, the replica meant to take them did not (assignShare). */
  #freeAtLastTick = new Set<string>();
  #overShareSince: number | undefined;
  /** Kept across ticks: each (replica, project) hashed once (assign-share.ts). */
  readonly #scores = new RendezvousScores();

  constructor(options: LeaseBalancerOptions) {
    this.#options = options;
    this.#ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    this.#graceMs = options.releaseGraceMs ?? this.#ttlMs;
    this.#joinStepMs = options.joinStepMs ?? 1_000;
    this.#joinMaxMs = options.joinMaxMs ?? this.intervalMs;
    // A dead replica leaves the count before its leases could run out on their own, so the survivors' shares
    // already cover its projects; looks come often enough that a live replica misses two before it is dead.
    const beatTtlMs = Math.min(options.beatTtlMs ?? DEFAULT_BEAT_TTL_MS, Math.floor((this.#ttlMs * 2) / 3));
    this.#beatTtlMs = beatTtlMs;
    this.#lookMs = Math.max(1, Math.min(options.lookMs ?? DEFAULT_LOOK_MS, Math.floor(beatTtlMs / 3)));
    this.#watch = new FleetWatch({
      self: options.self,
      registry: options.registry,
      lease: options.lease,
      clock: options.clock,
      beatTtlMs,
      ...(options.connections ? { connections: options.connections } : {}),
      ...(options.reconnectSettleMs !== undefined ? { settleMs: options.reconnectSettleMs } : {}),
    });
  }

  /** Ticks run this often at the latest: a third of the TTL. */
  get intervalMs(): number {
    return Math.max(1, Math.floor(this.#ttlMs / 3));
  }

  /** A replica silent for this long is dead. */
  get beatTtlMs(): number {
    return this.#beatTtlMs;
  }

  /** Looks (beat, the dead buried) run this often. */
  get lookMs(): number {
    return this.#lookMs;
  }

  /**
   * Projects this replica holds now, with their tokens. A lease not renewed within the TTL, or any lease while
   * this replica's beat is older than the beat TTL (Redis unreachable, or this process paused), is left out
   * even before a look notices: another replica may have it already.
   */
  held(): Map<string, number> {
    const held = new Map<string, number>();
    for (const project of this.#tenures.keys()) {
      const token = this.tokenOf(project);
      if (token !== undefined) held.set(project, token);
    }
    return held;
  }

  /** The token of `project` while this replica holds it (as {@link held} says, without copying every lease). */
  tokenOf(project: string): number | undefined {
    const tenure = this.#tenures.get(project);
    const now = this.#options.clock.now();
    if (tenure === undefined || now - tenure.renewedAt >= this.#ttlMs || !this.#watch.beatFresh(now)) {
      return undefined;
    }
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
    const { lease, clock } = this.#options;
    const claimed = async () => (await lease.holders([...new Set(this.#options.projects())])).size > 0;
    if (await claimed()) return;
    const deadline = clock.now() + this.#joinMaxMs;
    const lookMs = Math.min(JOIN_LOOK_MS, this.#joinStepMs);
    let live = (await this.#watch.beat()).live.join(' ');
    let sameSince = clock.now();
    while (clock.now() < deadline) {
      await clock.sleep(Math.min(lookMs, deadline - clock.now()), signal);
      const now = (await this.#watch.beat()).live.join(' ');
      if (now !== live) [live, sameSince] = [now, clock.now()];
      else if (clock.now() - sameSince >= this.#joinStepMs) return;
      // Another replica saw a stable fleet with this one in it and took its share: nothing left to wait for
      // (bench scaleRedis: the replicas that saw the last one arrive waited a step longer, their 2,000
      // projects unpolled while the first replica's 1,000 were).
      if (await claimed()) return;
    }
  }

  /** One look and one balancing step. Throws when Redis fails; the held leases then age out per {@link held}. */
  async tick(): Promise<BalanceReport> {
    return this.#balance(await this.#watch.look(this.#projects()));
  }

  /**
   * Takes one project now, outside the ticks, when no replica holds it: a project connected from chat on this
   * replica reads its first state under its own lease before the connect is answered (issue 30). The project
   * must be among {@link LeaseBalancerOptions.projects} by the next tick, which otherwise gives it back; later
   * ticks keep it or hand it on like any other. False while another replica holds it. One acquire script.
   */
  async claim(project: string): Promise<boolean> {
    const startedAt = this.#options.clock.now();
    const grant = await this.#options.lease.acquire(project, this.#options.self, this.#ttlMs);
    if (grant === null) return false;
    this.#tenures.set(project, { token: grant.token, renewedAt: startedAt });
    return true;
  }

  #projects(): string[] {
    return [...new Set(this.#options.projects())];
  }

  async #balance(look: FleetLook): Promise<BalanceReport> {
    const { self, lease, clock } = this.#options;
    const projects = this.#projects();
    const listed = new Set(projects);
    const replicas = look.live.includes(self) ? look.live : [...look.live, self].sort();

    const lost: string[] = [];
    if (look.buried) {
      // The others found this replica dead (a stall past the beat TTL) and broke its leases: none is ours.
      lost.push(...this.#tenures.keys());
      this.#tenures.clear();
    }
    const released: string[] = [];
    const unlisted = [...this.#tenures.keys()].filter((project) => !listed.has(project));
    await Promise.all(unlisted.map((project) => this.#release(project, released)));

    // Every lease held, renewed in one script; one that ran out meanwhile and is free is acquired again (a new
    // token: the engine reloads the state), one another replica has now is lost.
    const renewing = [...this.#tenures.keys()];
    const renewedAt = clock.now();
    const renewed = await lease.renewAll(renewing, self, this.#ttlMs);
    await Promise.all(
      renewing.map(async (project) => {
        let token = renewed.get(project);
        if (token === undefined) token = (await lease.acquire(project, self, this.#ttlMs))?.token;
        if (token === undefined) {
          this.#tenures.delete(project);
          lost.push(project);
        } else {
          this.#tenures.set(project, { token, renewedAt });
        }
      }),
    );

    const holders = new Map<string, string>();
    for (const [project, holder] of await lease.holders(projects)) holders.set(project, holder.holder);
    const free = projects.filter((project) => !holders.has(project));
    const stillFree = free.filter((project) => this.#freeAtLastTick.has(project));
    this.#freeAtLastTick = new Set(free);
    // Room for every project under twice the live replicas: a fleet that replaced its replicas starts over.
    this.#scores.bound(2 * (replicas.length + 1) * projects.length);
    const decision = assignShare({ self, replicas, projects, holders, stillFree, scores: this.#scores });

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
      deaths: look.deaths,
      contended: acquired.length < decision.acquire.length && this.#tenures.size < decision.share,
    };
  }

  /**
   * Looks every {@link lookMs} until `signal` aborts, and ticks after a death or a change of the live replicas
   * (at once: the dead one's projects are free), a join step after a contended tick, and every TTL/3 anyway;
   * then releases every lease and leaves the registry.
   */
  async run(signal: AbortSignal, onTick?: (report: BalanceReport) => void): Promise<void> {
    const { clock } = this.#options;
    let nextTickAt = Number.NEGATIVE_INFINITY;
    while (!signal.aborted) {
      try {
        const look = await this.#watch.look(this.#projects());
        if (look.changed || look.buried || look.deaths.length > 0 || clock.now() >= nextTickAt) {
          const startedAt = clock.now();
          const report = await this.#balance(look);
          nextTickAt = startedAt + (report.contended ? this.#joinStepMs : this.intervalMs);
          onTick?.(report);
        }
      } catch (error) {
        this.#options.onError?.(error);
      }
      try {
        await clock.sleep(this.#lookMs, signal);
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
