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
}

export function createStoreWatch(options: StoreWatchOptions): StoreWatch {
  const { clock, logger, health } = options;
  const logEvery = options.logEveryMs ?? 60_000;
  const target = describeStoreTarget(options.storeUrl, options.storeSetting);
  let failingSince: number | undefined;
  let loggedAt = Number.NEGATIVE_INFINITY;
  let failures = 0;

  return {
    observe(outcome) {
      const now = clock.now();
      if (outcome.ok) {
        if (failingSince !== undefined) {
          logger.info(
            { store: target.name, downMs: now - failingSince, failedOperations: failures },
            'the store answers again: polling and deliveries resume',
          );
        }
        failingSince = undefined;
        failures = 0;
        loggedAt = Number.NEGATIVE_INFINITY;
        health.recordStore(true);
        return;
      }
      failingSince ??= now;
      failures += 1;
      const reason = errorSummary(outcome.error);
      health.recordStore(false, `${outcome.operation} failed: ${reason}`);
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

/** Key read by the probe; never written, so it costs no store bytes. */
const PROBE_KEY = 'health/probe';

/**
 * Reads one key every `intervalMs` (default 10 s) so `/healthz` notices a store
 * that went away, and one that came back, even while nothing else touches it
 * (the engine backs off up to a minute after a failed cycle). Cost: one GET per
 * interval (8,640 a day at 10 s), no bytes stored. Give it the observed store.
 */
export function startStoreProbe(options: {
  readonly store: KeyValueStore;
  readonly clock: Clock;
  readonly intervalMs?: number;
}): { stop(): void } {
  const interval = options.intervalMs ?? 10_000;
  const controller = new AbortController();
  void (async () => {
    while (!controller.signal.aborted) {
      // The outcome reaches the health monitor through the observed store; the error is already recorded.
      await options.store.get(PROBE_KEY, z.unknown()).catch(() => undefined);
      await options.clock.sleep(interval, controller.signal).catch(() => undefined);
    }
  })();
  return { stop: () => controller.abort(new Error('store probe stopped')) };
}
