import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Clock } from '../lib/clock.js';
import type { BalanceReport } from '../lib/coordination/lease-balancer.js';
import type { StoreOutcome } from '../lib/store.js';
import type { Logger } from '../ops/index.js';
import { connectReplicaCoordination, type ReplicaCoordination } from './replica-coordination.js';

/** True for a store URL that several replicas share (and so need leases and claims). */
export const isSharedStore = (url: string): boolean =>
  url.startsWith('redis://') || url.startsWith('rediss://');

/** Unique per process (host, pid, random): a restarted process is a new holder, never its predecessor. */
export function newReplicaId(): string {
  return `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

export interface StartReplicasOptions {
  readonly storeUrl: string;
  readonly leaseTtlMs: number;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly registry: Registry;
  /** The projects to spread (the enabled ones); read at every balancer tick. */
  readonly projects: () => readonly string[];
  /** The store watch: fenced state writes bypass the observed store, so they report here. */
  readonly onStoreOutcome: (outcome: StoreOutcome) => void;
}

/**
 * On a redis:// store: connects this replica's coordination (leases through the balancer, delivery claims),
 * registers its metrics and starts balancing. Undefined for SQLite and memory stores (one process: the
 * engine's in-process lease and the ledger's in-process claims).
 *
 * Metrics: `fundbot_leases_held` (projects this replica polls now), `fundbot_lease_changes_total{change}`
 * (acquired, released) and `fundbot_lease_failovers_total` (projects another replica took from this one:
 * it paused past the TTL, lost Redis, or Redis restarted). Summed over replicas they give the fleet's view.
 */
/** The replica's coordination, and who to tell when the balancer takes projects over. */
export interface StartedReplicas extends ReplicaCoordination {
  /**
   * `listener` is told the projects held now, then those each balancer tick acquires (the engine starts their
   * runs at once; their key checks start). Told the held ones first, so no project acquired before the
   * listener came is missed.
   */
  whenAcquired(listener: (projects: readonly string[]) => void): void;
  /** The live replicas at the last balancer tick (this one included). */
  liveReplicas(): number;
}

export async function startReplicas(options: StartReplicasOptions): Promise<StartedReplicas | undefined> {
  if (!isSharedStore(options.storeUrl)) return undefined;
  const { logger } = options;
  let lastErrorLogAt = Number.NEGATIVE_INFINITY;
  const beatSeconds = () => coordination.balancer.beatTtlMs / 1000;
  const coordination = await connectReplicaCoordination({
    url: options.storeUrl,
    replicaId: newReplicaId(),
    clock: options.clock,
    projects: options.projects,
    ttlMs: options.leaseTtlMs,
    onStoreOutcome: options.onStoreOutcome,
    onConnectionWatch: (watched, reason) => {
      if (watched) logger.info({ reason }, 'killed replicas are found by their closed Redis connection');
      else
        logger.warn(
          { reason },
          `killed replicas cannot be found by their closed Redis connection here: they are found when their beat runs out (${beatSeconds()} s)`,
        );
    },
    onError: (error) => {
      // Once a minute: a Redis that is down fails every tick (health and the store watch say so too).
      if (options.clock.now() - lastErrorLogAt < 60_000) return;
      lastErrorLogAt = options.clock.now();
      logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        'lease balancing fails: check that Redis is running; projects held here stop being polled within the lease TTL and are taken over when it returns',
      );
    },
  });
  const registers = [options.registry];
  new Gauge({
    name: 'fundbot_leases_held',
    help: 'Projects whose lease this replica holds (and so polls) now.',
    registers,
    collect() {
      this.set(coordination.held().length);
    },
  });
  const changes = new Counter({
    name: 'fundbot_lease_changes_total',
    help: 'Project leases this replica acquired or released, by change.',
    labelNames: ['change'] as const,
    registers,
  });
  const failovers = new Counter({
    name: 'fundbot_lease_failovers_total',
    help: 'Projects another replica took over from this one (it paused past the lease TTL or lost Redis).',
    registers,
  });
  const acquiredListeners: ((projects: readonly string[]) => void)[] = [];
  let live = 1;
  const onTick = (report: BalanceReport) => {
    live = Math.max(1, report.replicas);
    if (report.acquired.length > 0) {
      changes.inc({ change: 'acquired' }, report.acquired.length);
      for (const listener of acquiredListeners) listener(report.acquired);
    }
    if (report.released.length > 0) changes.inc({ change: 'released' }, report.released.length);
    if (report.lost.length > 0) {
      failovers.inc(report.lost.length);
      logger.warn({ projects: report.lost }, 'project leases lost to another replica');
    }
    for (const death of report.deaths) {
      logger.warn(
        { replica: death.replica, cause: death.cause, projects: death.projects },
        death.cause === 'connection'
          ? 'replica found dead (its Redis connection closed): its projects are taken over'
          : `replica found dead (no beat for ${beatSeconds()} s: frozen or cut off): its projects are taken over`,
      );
    }
    if (report.acquired.length > 0 || report.released.length > 0) {
      logger.info(
        {
          acquired: report.acquired,
          released: report.released,
          replicas: report.replicas,
          share: report.share,
        },
        'project leases changed',
      );
    }
  };
  // A fleet starting together waits to see itself whole, then claims: each replica its share, not the first all.
  await coordination.balancer.join().catch(() => undefined);
  // One tick before the engine starts, so it finds its share held instead of waiting a third of a TTL.
  await coordination.balancer.tick().then(onTick, () => undefined);
  coordination.start(onTick);
  logger.info(
    {
      replica: coordination.replicaId,
      leaseTtlMs: options.leaseTtlMs,
      beatTtlMs: coordination.balancer.beatTtlMs,
      lookMs: coordination.balancer.lookMs,
    },
    'replica joined',
  );
  return Object.assign(coordination, {
    whenAcquired(listener: (projects: readonly string[]) => void) {
      acquiredListeners.push(listener);
      const held = coordination.held();
      if (held.length > 0) listener(held);
    },
    liveReplicas: () => live,
  });
}
