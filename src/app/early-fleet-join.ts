import { Registry } from 'prom-client';
import type { FundbotConfig } from '../config/index.js';
import { systemClock } from '../lib/clock.js';
import type { StoreOutcome } from '../lib/store.js';
import type { Logger } from '../ops/index.js';
import { isSharedStore, type StartedReplicas, startReplicas } from './start-replicas.js';

/** What the bot binds once it has them: until then the configured projects, and no store watch. */
export interface FleetJoinBindings {
  /** The projects to spread (the enabled configured ones and the hosted ones), read at every balancer tick. */
  readonly projects: () => readonly string[];
  readonly onStoreOutcome: (outcome: StoreOutcome) => void;
}

/** A replica's fleet join, started before the rest of the bot is loaded. */
export interface EarlyFleetJoin {
  /** The registry the replica's metrics are on: the bot's own (`/metrics`). */
  readonly registry: Registry;
  /** The joined replica, as {@link startReplicas} gives it; rejects as it does (Redis unreachable). */
  readonly replicas: Promise<StartedReplicas | undefined>;
  /** Hands the join what only the started bot knows (see {@link FleetJoinBindings}). */
  bind(bindings: FleetJoinBindings): void;
}

/**
 * Starts a replica's fleet join (src/main.ts) before the rest of the bot is loaded, so the join's wait overlaps
 * the loading. A bot started in process (tests) has none from main: `startBot` starts its own here, at the point
 * where it joins the fleet. A fleet starting together waits until its live replicas have stayed the same for a second before
 * anyone claims (lease-balancer.ts, `join`); started after the whole bot had loaded, that second found every
 * replica idle at once (bench scaleRedis profile: 1.2 s idle per replica between loading and the first polls).
 * Started here, each replica beats a second or so earlier, and the wait passes while its modules load.
 *
 * Undefined for SQLite and memory stores (one process, no fleet). Costs nothing the join did not cost before:
 * the same connection, beats and first claims, only earlier. Until the bot binds its project list the join
 * spreads the configured projects, as the first balancer tick did before (the key checks and the hosted projects
 * come after it either way).
 */
export function startFleetJoinEarly(config: FundbotConfig, logger: Logger): EarlyFleetJoin | undefined {
  if (!isSharedStore(config.store.url)) return undefined;
  const configured = config.projects.map((p) => p.linkCaption);
  let bound: FleetJoinBindings | undefined;
  const registry = new Registry();
  const replicas = startReplicas({
    storeUrl: config.store.url,
    leaseTtlMs: config.store.leaseTtlMs,
    clock: systemClock,
    logger,
    registry,
    projects: () => bound?.projects() ?? configured,
    // Fenced state writes are the engine's, which starts after the bot bound this.
    onStoreOutcome: (outcome) => bound?.onStoreOutcome(outcome),
  });
  // Awaited by the bot. A bot that fails before it gets there (the store itself failed first) reports its own
  // error and exits; its closed connection tells the other replicas at once.
  replicas.catch(() => undefined);
  return {
    registry,
    replicas,
    bind(bindings) {
      bound = bindings;
    },
  };
}
