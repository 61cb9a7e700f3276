import { Counter, Gauge, type Registry } from 'prom-client';
import {
  type ApiClient,
  type ApiDriftChange,
  type ApiDriftReport,
  checkApiDrift,
  keepLastDriftChange,
  readLastDriftChange,
} from '../api/index.js';
import type { Clock } from '../lib/clock.js';
import type { KeyValueStore } from '../lib/store.js';
import type { Logger } from '../ops/index.js';

export interface ApiDriftWatchOptions {
  readonly api: Pick<ApiClient, 'openapi'>;
  readonly store: KeyValueStore;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Gets `fundbot_api_drift_changes` and `fundbot_api_drift_checks_total{result}`. */
  readonly registry?: Registry;
  /** Default one day, as the spec suggests "periodically". */
  readonly intervalMs?: number;
  /** After a failed fetch (default one hour). */
  readonly retryMs?: number;
}

export interface ApiDriftWatch {
  /**
   * One line for `/status` when the API description changed since fundbot first
   * saw it (kept in the store until the next change), or undefined. Plain English
   * for the operator, e.g. "the API description changed on 2026-11-23: 2 changes
   * (removed response field GET /project/{link_caption} process_status; …)".
   */
  statusLine(): string | undefined;
  stop(): void;
}

/**
 * Fetches `/openapi.json` at start and once a day on the injected clock, compares
 * it with the copy kept in the store (`checkApiDrift`), and reports a change: a
 * `warn` log naming what changed, the metrics, and {@link ApiDriftWatch.statusLine}.
 * Cost: one request a day, without a credential (no key budget), and the
 * document's size in the store (tens of kB) plus a short summary.
 */
export function watchApiDrift(options: ApiDriftWatchOptions): ApiDriftWatch {
  const { clock, logger, store } = options;
  const interval = options.intervalMs ?? 24 * 60 * 60_000;
  const retry = options.retryMs ?? 60 * 60_000;
  const registers = options.registry ? [options.registry] : [];
  const changes = new Gauge({
    name: 'fundbot_api_drift_changes',
    help: 'Changes found in /openapi.json by the latest drift check (0 = none).',
    registers,
  });
  const checks = new Counter({
    name: 'fundbot_api_drift_checks_total',
    help: 'Drift checks of /openapi.json by result (baseline, unchanged, changed, failed).',
    labelNames: ['result'] as const,
    registers,
  });
  let lastChange: ApiDriftChange | undefined;
  const controller = new AbortController();

  async function checkOnce(): Promise<boolean> {
    try {
      const check = await checkApiDrift({ ...options, signal: controller.signal });
      if (!check.report.changed) {
        changes.set(0);
        checks.inc({ result: check.baseline ? 'baseline' : 'unchanged' });
        return true;
      }
      const summary = describeDrift(check.report);
      changes.set(summary.length);
      checks.inc({ result: 'changed' });
      lastChange = { seenAt: check.checkedAt, count: summary.length, summary: summary.slice(0, 20) };
      await keepLastDriftChange(store, lastChange).catch(() => undefined);
      logger.warn(
        { changes: summary.slice(0, 20), count: summary.length },
        `the platform's API description (/openapi.json) changed: ${summary.slice(0, 5).join('; ')}${summary.length > 5 ? `; and ${summary.length - 5} more` : ''}. Check that fundbot's notices still work and look for a fundbot update`,
      );
      return true;
    } catch (error) {
      if (controller.signal.aborted) return false;
      checks.inc({ result: 'failed' });
      logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'the API drift check could not fetch /openapi.json: trying again in an hour',
      );
      return false;
    }
  }

  void (async () => {
    lastChange = await readLastDriftChange(store).catch(() => undefined);
    while (!controller.signal.aborted) {
      const ok = await checkOnce();
      await clock.sleep(ok ? interval : retry, controller.signal).catch(() => undefined);
    }
  })();

  return {
    statusLine() {
      if (!lastChange) return undefined;
      const day = new Date(lastChange.seenAt).toISOString().slice(0, 10);
      const first = lastChange.summary.slice(0, 3).join('; ');
      return `the API description changed on ${day}: ${lastChange.count} change${lastChange.count === 1 ? '' : 's'} (${first}${lastChange.count > 3 ? '; …' : ''})`;
    },
    stop() {
      controller.abort(new Error('drift watch stopped'));
    },
  };
}

/** One short line per change, most consequential first (removals break fundbot, additions rarely do). */
export function describeDrift(report: ApiDriftReport): string[] {
  const op = (o: { method: string; path: string }) => `${o.method} ${o.path}`;
  return [
    ...report.removedPaths.map((p) => `removed path ${p}`),
    ...report.removedOperations.map((o) => `removed operation ${op(o)}`),
    ...report.removedResponseFields.map((f) => `removed response field ${op(f)} ${f.field}`),
    ...report.changedResponseFields.map(
      (f) => `response field ${op(f)} ${f.field}: ${f.before} → ${f.after}`,
    ),
    ...report.removedParameters.map((p) => `removed parameter ${op(p)} ${p.in} ${p.name}`),
    ...report.changedParameters.map((p) => `parameter ${op(p)} ${p.in} ${p.name}: ${p.changes.join(', ')}`),
    ...report.addedParameters.map((p) => `added parameter ${op(p)} ${p.in} ${p.name}`),
    ...report.addedResponseFields.map((f) => `added response field ${op(f)} ${f.field}`),
    ...report.addedOperations.map((o) => `added operation ${op(o)}`),
    ...report.addedPaths.map((p) => `added path ${p}`),
  ];
}
