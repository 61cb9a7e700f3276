import { z } from 'zod';
import type { Clock } from '../lib/clock.js';
import type { KeyValueStore, StoreOutcome } from '../lib/store.js';
import { errorSummary } from './error-summary.js';
import type { HealthMonitor } from './health.js';
import type { Logger } from './logger.js';

export interface StoreWatchOptions {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly health: Pick<HealthMonitor, 'recordStore'>;
  /** The configured store URL (credentials are never logged: only host and port are named). */
  readonly storeUrl: string;
  /** Where the operator sets it, named in the advice (the composition root knows the variable's name). */
  readonly storeSetting?: string;
  /** A failing store is logged at most this often (default one minute). */
  readonly logEveryMs?: number;
}

/**
 * Turns store outcomes into health and log lines: every outcome updates
 * `/healthz`; a failing store is logged at `error` once per `logEveryMs` with
 * what to check, and its recovery once at `info`. Pass {@link StoreWatch.observe}
 * as `observedStore({ onOutcome })`.
 */
export interface StoreWatch {
  observe(outcome: StoreOutcome): void;
  /** When a write (set or delete) last succeeded, on the watch's clock; undefined before the first. */
  lastWriteAt(): number | undefined;
}

export function createStoreWatch(options: StoreWatchOptions): StoreWatch {
  const { clock, logger, health } = options;
  const logEvery = options.logEveryMs ?? 60_000;
  const target = describeStoreTarget(options.storeUrl, options.storeSetting);
  let failingSince: number | undefined;
  let loggedAt = Number.NEGATIVE_INFINITY;
  let failures = 0;
  // Reads and writes fail apart (a read-only file answers every read): a failed write keeps the
  // store unhealthy until a write succeeds, whatever the reads in between say.
  let writeFailure: string | undefined;
  let readFailure: string | undefined;
  let lastWriteAt: number | undefined;

  return {
    lastWriteAt: () => lastWriteAt,
    observe(outcome) {
      const now = clock.now();
      const isWrite = outcome.operation !== 'get';
      if (outcome.ok) {
        if (isWrite) {
          writeFailure = undefined;
          lastWriteAt = now;
        } else readFailure = undefined;
        const still = writeFailure ?? readFailure;
        if (still !== undefined) {
          health.recordStore(false, still);
          return;
        }
        if (failingSince !== undefined) {
          logger.info(
            { store: target.name, downMs: now - failingSince, failedOperations: failures },
            'the store answers again: polling and deliveries resume',
          );
        }
        // `loggedAt` is kept: a store that flaps (one answer between failures) logs once a minute, not per flap.
        failingSince = undefined;
        failures = 0;
        health.recordStore(true);
        return;
      }
      failingSince ??= now;
      failures += 1;
      const reason = errorSummary(outcome.error);
      const detail = `${outcome.operation} failed: ${reason}; ${target.check}`;
      if (isWrite) writeFailure = detail;
      else readFailure = detail;
      health.recordStore(false, detail);
      if (now - loggedAt < logEvery) return;
      loggedAt = now;
      logger.error(
        {
          store: target.name,
          operation: outcome.operation,
          reason,
          failingForMs: now - failingSince,
          failedOperations: failures,
        },
        `the store does not answer: ${target.check}. Polling waits and nothing is lost; /healthz reports 503 until it answers`,
      );
    },
  };
}

/** A store URL's name (no credentials) and what an operator should check when it fails. */
export function describeStoreTarget(url: string, setting = 'store.url'): { name: string; check: string } {
  if (url.startsWith('redis://') || url.startsWith('rediss://')) {
    let where = 'the configured host';
    try {
      const parsed = new URL(url);
      where = `${parsed.hostname}:${parsed.port || '6379'}`;
    } catch {}
    return {
      name: `Redis at ${where}`,
      check: `check that Redis at ${where} is running and reachable from this host (${setting}), and its password`,
    };
  }
  if (url.startsWith('sqlite://')) {
    const path = url.slice('sqlite://'.length);
    return {
      name: `SQLite file ${path}`,
      check: `check that the disk holding ${path} is not full and the file is writable by the user fundbot runs as`,
    };
  }
  return { name: 'the in-memory store', check: 'this should not happen with memory: report a bug' };
}

/** The key the probe writes and reads back (kept one minute: it never accumulates). */
export const PROBE_KEY = 'health/probe';
const probeTtlMs = 60_000;

/**
 * Writes a small key (with a one-minute TTL) and reads it back every `intervalMs` (default
 * 10 s), so `/healthz` notices a store that went away, came back, or still answers reads but
 * refuses writes (a read-only file, a full disk: reads alone said "last operation succeeded",
 * issue 23), even while nothing else touches it. Give it the observed store: the outcomes reach
 * health and the error log through it. The write is left out when another write succeeded within
 * the interval (`lastWriteAt`, from the store watch): that one proved the same. Cost: at most one
 * SET of about 20 bytes and one GET per interval (on SQLite one small transaction every 10 s while
 * nothing else writes, counted in bench `store-disk`).
 */
export function startStoreProbe(options: {
  readonly store: KeyValueStore;
  readonly clock: Clock;
  readonly intervalMs?: number;
  /** When a write last succeeded (StoreWatch.lastWriteAt); without it the probe writes every time. */
  readonly lastWriteAt?: () => number | undefined;
}): { stop(): void } {
  const interval = options.intervalMs ?? 10_000;
  const controller = new AbortController();
  const probeSchema = z.object({ at: z.number() });
  void (async () => {
    while (!controller.signal.aborted) {
      // The outcomes reach the health monitor through the observed store; the errors are already recorded.
      const lastWrite = options.lastWriteAt?.();
      if (lastWrite === undefined || options.clock.now() - lastWrite >= interval) {
        await options.store.set(PROBE_KEY, { at: options.clock.now() }, probeTtlMs).catch(() => undefined);
      }
      await options.store.get(PROBE_KEY, probeSchema).catch(() => undefined);
      await options.clock.sleep(interval, controller.signal).catch(() => undefined);
    }
  })();
  return { stop: () => controller.abort(new Error('store probe stopped')) };
}
