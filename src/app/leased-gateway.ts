import type { Clock } from '../lib/clock.js';
import type { Lease } from '../lib/coordination/lease.js';
import type { Logger } from '../ops/index.js';

/** The one resource name: every replica competes for the same lease. */
export const GATEWAY_LEASE = 'discord-gateway';

/** A gateway session: opened when the lease is won, closed when it is lost or the replica stops. */
export interface GatewaySession {
  stop(): Promise<void>;
}

export interface LeasedGatewayOptions {
  /** The replicas' shared lease (Redis), on a key space of its own so no project can be named like it. */
  readonly lease: Lease;
  /** The one-per-fleet job's lease name; default {@link GATEWAY_LEASE}. */
  readonly resource?: string;
  /** The job in the log lines; default "discord gateway". */
  readonly name?: string;
  /** This replica's id (unique per process). */
  readonly holder: string;
  readonly ttlMs: number;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Logs in and resolves once the session is ready; throws when it cannot. */
  readonly connect: () => Promise<GatewaySession>;
}

export interface LeasedGateway {
  /** First attempt (awaited, so a refused token fails the start as without replicas), then renews every TTL/3. */
  start(): Promise<void>;
  /** Closes the session if this replica has it and gives the lease back, so another takes over at its next tick. */
  stop(): Promise<void>;
  /** Whether this replica holds the session now. */
  connected(): boolean;
}

/**
 * A job exactly one replica of the fleet runs (`resource` names its lease): Discord's gateway, where only the
 * holder of the "discord-gateway" lease opens a session (two sessions with one token would both receive every
 * command and answer it twice), and the User key's reader (one reader per fleet, its reads spread to the
 * key's reset). The
 * holder renews every TTL/3, the others try to acquire every TTL/10; a holder that cannot renew closes
 * its session before the lease can expire in Redis, so two sessions never overlap.
 *
 * Takeover: after a clean stop at the next try of another replica (≤ TTL/10); after a crash (kill -9)
 * once the lease expires, ≤ TTL + TTL/10, plus the login. Cost: one acquire script per holder and TTL/3
 * (6 a minute at the default 30 s), per standby one per TTL/10 (20 a minute); one lease key (~60 B)
 * and its token counter (~40 B).
 */
export function leasedGateway(options: LeasedGatewayOptions): LeasedGateway {
  const { lease, holder, ttlMs, clock, logger } = options;
  const resource = options.resource ?? GATEWAY_LEASE;
  const name = options.name ?? 'discord gateway';
  const intervalMs = Math.max(1, Math.floor(ttlMs / 3));
  // A standby looks more often than the holder renews: a dead holder's session is replaced soon after its lease ends.
  const standbyMs = Math.max(1, Math.floor(ttlMs / 10));
  const running = new AbortController();
  let session: GatewaySession | undefined;
  let renewedAt = Number.NEGATIVE_INFINITY;
  let lastErrorLogAt = Number.NEGATIVE_INFINITY;
  let loop: Promise<void> | undefined;

  async function disconnect(why: string): Promise<void> {
    const closing = session;
    session = undefined;
    if (!closing) return;
    await closing
      .stop()
      .catch((error: unknown) => logger.warn({ err: String(error) }, `${name} close failed`));
    logger.info({ replica: holder, why }, `${name} session closed on this replica`);
  }

  async function tick(first: boolean): Promise<void> {
    const askedAt = clock.now();
    let held: boolean;
    try {
      held = (await lease.acquire(resource, holder, ttlMs)) !== null;
    } catch (error) {
      if (clock.now() - lastErrorLogAt >= 60_000) {
        lastErrorLogAt = clock.now();
        logger.error(
          { err: error instanceof Error ? error.message : String(error) },
          `the ${name} lease cannot be renewed: check that Redis is running; the session closes before the lease expires`,
        );
      }
      // The next tick would come after the lease expired in Redis: another replica may connect by then.
      if (session && clock.now() + intervalMs >= renewedAt + ttlMs) await disconnect('lease not renewable');
      if (first) throw error;
      return;
    }
    if (held) renewedAt = askedAt;
    if (held && !session) {
      try {
        session = await options.connect();
        logger.info({ replica: holder }, `${name} lease held: this replica runs it for the fleet`);
      } catch (error) {
        // Let another replica try: its login may work where this one's did not.
        await lease.release(resource, holder).catch(() => undefined);
        if (first) throw error;
        logger.error(
          { err: error instanceof Error ? error.message : String(error) },
          `${name} failed to start on this replica; the lease is given back`,
        );
      }
    } else if (!held && session) {
      await disconnect(`another replica holds the ${name} lease`);
    }
  }

  return {
    connected: () => session !== undefined,
    async start() {
      await tick(true);
      if (!session) logger.info({ replica: holder }, `${name} held by another replica: standing by`);
      loop = (async () => {
        while (!running.signal.aborted) {
          await clock.sleep(session ? intervalMs : standbyMs, running.signal).catch(() => undefined);
          if (running.signal.aborted) break;
          await tick(false).catch(() => undefined);
        }
      })();
    },
    async stop() {
      running.abort();
      await loop;
      const had = session !== undefined;
      await disconnect('replica stopping');
      if (had) await lease.release(resource, holder).catch(() => undefined);
    },
  };
}
