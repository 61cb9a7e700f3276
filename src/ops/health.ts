import type { Clock } from '../lib/clock.js';
import type { PollResult } from './metrics.js';

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
  /** Projects whose polls are expected (the enabled ones after the key check); read on every report. */
  readonly projects: readonly string[] | (() => readonly string[]);
  /**
   * A project without a successful poll for this long makes the process unhealthy
   * (default 15 minutes). Counted from start-up for a project that never polled.
   * Keep it above the longest poll interval the budget planner may choose.
   */
  readonly pollStaleAfterMs?: number;
  /** Names the store in details, e.g. "Redis at cache:6379" (no credentials). */
  readonly storeName?: string;
  /**
   * The projects whose polling the engine paused (their key was rejected), with why and since when. Read once
   * per report: a paused project makes no polls that could tell health about it. (Asked per project, the
   * engine's whole status was built once per held project: 1,000 x 3,000 entries per /healthz on a replica.)
   */
  readonly paused?: () => ReadonlyMap<string, { readonly reason: string; readonly since: number }>;
  /**
   * With several replicas on Redis: this replica's id and the projects whose leases it holds now. `/healthz`
   * shows them, and `projects` should then return the held ones only (the others are polled elsewhere).
   */
  readonly replica?: () => { readonly id: string; readonly holds: readonly string[] } | undefined;
  /**
   * The delivery pipeline's view: channels the bot cannot post in (their notices are
   * held), deliveries queued or set aside. A revoked platform token makes the process
   * unhealthy (nothing can be posted until the operator acts); a channel someone must
   * invite the bot back to is reported, not failed.
   */
  readonly delivery?: () => {
    readonly cannotPost: readonly {
      readonly channel: string;
      readonly reason: string;
      readonly since: number;
    }[];
    readonly pending: number;
  };
  /** More named checks, read on every report (e.g. `store-data`: the store found empty while it held data). */
  readonly extraChecks?: () => Readonly<Record<string, HealthCheck>>;
}

/** One finished poll, as the engine's `onPoll` reports it. */
export interface PollObservation {
  readonly project: string;
  readonly feed: string;
  readonly result: PollResult;
}

/**
 * Collects the signals `/healthz` is made of: the engine reports each poll, the
 * store wrapper each operation. `report()` is what the ops server calls; it is
 * computed from the latest outcomes, so health recovers on its own with the
 * first success after a failure.
 */
export interface HealthMonitor {
  recordPoll(poll: PollObservation): void;
  /** The store answered (ok) or threw (not ok). Only the latest outcome counts. */
  recordStore(ok: boolean, detail?: string): void;
  /**
   * A daily digest post to one channel (`target`, e.g. `solar-kiosk discord:<server>:<channel>`):
   * `failure` undefined when it was posted, else why not. Only the latest outcome per channel counts.
   */
  recordDigest(target: string, failure: string | undefined): void;
  report(): HealthReport;
}

/** Results that say nothing about the project's health: a wait imposed by the API or a lease. */
const NEUTRAL: ReadonlySet<PollResult> = new Set(['rate_limited', 'skipped']);

/**
 * A project is unhealthy when the latest poll of every feed it polled failed
 * (`forbidden` on every feed: its key is rejected), or when it had no successful
 * poll for `pollStaleAfterMs`. The store is unhealthy from its first failed
 * operation until the next one that succeeds. The digest is unhealthy while its latest
 * post to some channel failed (a channel that is gone or closed to the bot is not
 * reported here: that is the channel's business, and the log names it).
 */
export function createHealthMonitor(options: HealthMonitorOptions): HealthMonitor {
  const { clock } = options;
  const staleAfter = options.pollStaleAfterMs ?? 15 * 60_000;
  const storeName = options.storeName ?? 'the store';
  const startedAt = clock.now();
  const lastSuccess = new Map<string, number>();
  const latest = new Map<string, Map<string, PollResult>>();
  const failingSince = new Map<string, number>();
  // When each project was first expected here: a project a replica takes over late is not stale on arrival.
  const expectedSince = new Map<string, number>();
  let reported = false;
  let storeOk = true;
  let storeDetail = 'no store operation yet';
  let storeFailingSince: number | undefined;
  const digestFailures = new Map<string, { readonly reason: string; readonly since: number }>();
  let digestsPosted = 0;

  const seconds = (ms: number) => Math.round(ms / 1000);

  function projectCheck(
    project: string,
    now: number,
    paused: { readonly reason: string; readonly since: number } | undefined,
  ): HealthCheck {
    if (paused !== undefined) {
      return {
        ok: false,
        detail: `${paused.reason}: polling paused for ${seconds(now - paused.since)} s; replace the key in its variable (see the error log)`,
      };
    }
    const feeds = latest.get(project);
    const results = feeds ? [...feeds.values()] : [];
    const since = failingSince.get(project);
    if (results.length > 0 && since !== undefined && results.every((r) => r === 'forbidden')) {
      return {
        ok: false,
        detail: `the API rejects this project's key on every feed (forbidden, ${seconds(now - since)} s): replace the key in its variable (see the error log)`,
      };
    }
    if (results.length > 0 && since !== undefined && results.every((r) => r !== 'ok')) {
      return {
        ok: false,
        detail: `every feed fails (${[...new Set(results)].join(', ')}) since ${seconds(now - since)} s: see the warnings in the log`,
      };
    }
    const last = lastSuccess.get(project);
    const age = now - (last ?? expectedSince.get(project) ?? startedAt);
    return {
      ok: age <= staleAfter,
      detail:
        last === undefined
          ? `no successful poll yet (${seconds(age)} s since ${options.replica ? 'start or takeover' : 'start'})`
          : `last successful poll ${seconds(age)} s ago`,
    };
  }

  return {
    recordPoll({ project, feed, result }) {
      if (NEUTRAL.has(result)) return;
      const now = clock.now();
      if (result === 'ok') lastSuccess.set(project, now);
      const feeds = latest.get(project) ?? new Map<string, PollResult>();
      feeds.set(feed, result);
      latest.set(project, feeds);
      if (result === 'ok') failingSince.delete(project);
      else if (!failingSince.has(project)) failingSince.set(project, now);
    },
    recordStore(ok, detail) {
      storeOk = ok;
      storeDetail = detail ?? (ok ? 'last operation succeeded' : 'last operation failed');
      if (ok) storeFailingSince = undefined;
      else storeFailingSince ??= clock.now();
    },
    recordDigest(target, failure) {
      if (failure === undefined) {
        digestFailures.delete(target);
        digestsPosted += 1;
        return;
      }
      const since = digestFailures.get(target)?.since ?? clock.now();
      digestFailures.set(target, { reason: failure, since });
    },
    report() {
      const now = clock.now();
      const store: HealthCheck =
        storeFailingSince === undefined
          ? { ok: storeOk, detail: storeDetail }
          : {
              ok: false,
              detail: `${storeName} fails since ${seconds(now - storeFailingSince)} s: ${storeDetail}`,
            };
      const checks: Record<string, HealthCheck> = { store, ...options.extraChecks?.() };
      const projects = typeof options.projects === 'function' ? options.projects() : options.projects;
      const expected = new Set(projects);
      for (const project of expectedSince.keys()) if (!expected.has(project)) expectedSince.delete(project);
      const paused = options.paused?.();
      for (const project of projects) {
        // A replica's project taken over later counts from when seen; any other from start-up (a project
        // enabled after the key check was expected from the start).
        if (!expectedSince.has(project))
          expectedSince.set(project, reported && options.replica ? now : startedAt);
        checks[`poll:${project}`] = projectCheck(project, now, paused?.get(project));
      }
      reported = true;
      const digest = digestCheck(digestFailures, digestsPosted, now);
      if (digest !== undefined) checks['digest'] = digest;
      const replica = options.replica?.();
      if (replica !== undefined) checks['replica'] = { ok: true, detail: replicaDetail(replica) };
      const delivery = options.delivery?.();
      if (delivery !== undefined) checks['delivery'] = deliveryCheck(delivery, now);
      return { healthy: Object.values(checks).every((c) => c.ok), checks };
    },
  };
}

/** The most project names the `replica` check lists: each held project has its own `poll:<project>` check. */
const REPLICA_NAMES_SHOWN = 10;

/**
 * The `replica` check's detail: the count and at most {@link REPLICA_NAMES_SHOWN} names. Every held name made
 * it grow with the fleet (1,000 names on each replica of bench scaleRedis), while the `poll:<project>` checks
 * beside it already name each project this replica polls.
 */
function replicaDetail(replica: { readonly id: string; readonly holds: readonly string[] }): string {
  const { id, holds } = replica;
  if (holds.length === 0) return `replica ${id} holds 0 project(s): none`;
  const shown = holds.slice(0, REPLICA_NAMES_SHOWN).join(', ');
  if (holds.length <= REPLICA_NAMES_SHOWN) return `replica ${id} holds ${holds.length} project(s): ${shown}`;
  return `replica ${id} holds ${holds.length} project(s): ${shown} and ${holds.length - REPLICA_NAMES_SHOWN} more (each polled one has its poll:<project> check)`;
}

function deliveryCheck(
  delivery: NonNullable<ReturnType<NonNullable<HealthMonitorOptions['delivery']>>>,
  now: number,
): HealthCheck {
  const held = delivery.cannotPost;
  if (held.length === 0) return { ok: true, detail: `${delivery.pending} notice(s) queued or set aside` };
  const listed = held
    .slice(0, 10)
    .map((c) => `${c.channel} (${c.reason} for ${Math.round((now - c.since) / 1000)} s)`)
    .join(', ');
  const tokenRevoked = held.some((c) => c.reason === 'token-revoked');
  return {
    ok: !tokenRevoked,
    detail: `cannot post in ${held.length} channel(s), their notices are held for a catch-up: ${listed}${
      held.length > 10 ? ', …' : ''
    }${tokenRevoked ? '; the platform refuses the bot token: reinstall the app or replace the token' : ''}`,
  };
}

/** The `digest` check: absent before the first digest post, failing while a channel's latest post failed. */
function digestCheck(
  failures: ReadonlyMap<string, { readonly reason: string; readonly since: number }>,
  posted: number,
  now: number,
): HealthCheck | undefined {
  const [first] = failures;
  if (first === undefined) {
    return posted > 0 ? { ok: true, detail: `${posted} digest(s) posted, none failing` } : undefined;
  }
  const [target, { reason, since }] = first;
  const others = failures.size > 1 ? ` and ${failures.size - 1} more channel(s)` : '';
  return {
    ok: false,
    detail: `the daily digest did not reach ${target}${others} (${reason}, failing since ${Math.round((now - since) / 1000)} s): fundbot keeps trying until the end of its day (a channel it cannot post in: at each hourly check); see the delivery warnings in the log`,
  };
}
