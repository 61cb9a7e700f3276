import type { Clock } from '../lib/clock.js';

/** One named check of {@link HealthReport}. `detail` is for humans: no secrets, no personal data. */
export interface HealthCheck {
  readonly ok: boolean;
  readonly detail: string;
}

/** What `/healthz` reports: 200 when `healthy`, 503 otherwise. */
export interface HealthReport {
  readonly healthy: boolean;
  readonly checks: Readonly<Record<string, HealthCheck>>;
}

export interface HealthMonitorOptions {
  readonly clock: Clock;
  /** Projects whose polls are expected (the enabled ones after the key check). */
  readonly projects: readonly string[];
  /**
   * A project without a successful poll for this long makes the process unhealthy
   * (default 15 minutes). Counted from start-up for a project that never polled.
   * Keep it above the longest poll interval the budget planner may choose.
   */
  readonly pollStaleAfterMs?: number;
}

/**
 * Collects the signals `/healthz` is made of: the engine reports each poll, the
 * store wrapper each failure or success. `report()` is what the ops server calls.
 */
export interface HealthMonitor {
  recordPoll(project: string, ok: boolean): void;
  /** The store answered (ok) or threw (not ok). Only the latest outcome counts. */
  recordStore(ok: boolean, detail?: string): void;
  report(): HealthReport;
}

export function createHealthMonitor(options: HealthMonitorOptions): HealthMonitor {
  const { clock } = options;
  const staleAfter = options.pollStaleAfterMs ?? 15 * 60_000;
  const startedAt = clock.now();
  const lastSuccess = new Map<string, number>();
  let store: HealthCheck = { ok: true, detail: 'no store operation yet' };

  return {
    recordPoll(project, ok) {
      if (ok) lastSuccess.set(project, clock.now());
    },
    recordStore(ok, detail) {
      store = { ok, detail: detail ?? (ok ? 'last operation succeeded' : 'last operation failed') };
    },
    report() {
      const now = clock.now();
      const checks: Record<string, HealthCheck> = { store };
      for (const project of options.projects) {
        const last = lastSuccess.get(project);
        const age = now - (last ?? startedAt);
        const ok = age <= staleAfter;
        const seconds = Math.round(age / 1000);
        checks[`poll:${project}`] = {
          ok,
          detail:
            last === undefined
              ? `no successful poll yet (${seconds} s since start)`
              : `last successful poll ${seconds} s ago`,
        };
      }
      return { healthy: Object.values(checks).every((c) => c.ok), checks };
    },
  };
}
