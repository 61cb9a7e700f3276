import type { EventSink } from '../domain/event-sink.js';
import { type BackoffPolicy, backoffMs } from '../lib/backoff.js';
import { assumedBudget } from './credential-gate.js';
import type { EngineContext } from './engine-context.js';
import { feedOf, type ProjectRuntime } from './project-runtime.js';
import { projectDueAt, runProject } from './scheduler.js';
import { nextPollInWindow, openSignalWindow } from './signal-interleave.js';

/**
 * A live change signal holds the fundings polls back at most this long after the last one: a
 * signal whose counts stopped moving (a platform fault) cannot hold the feed longer.
 */
const SIGNAL_TRUSTED_FOR_MS = 10 * 60_000;

/** After a failed run of one project: 1 s doubling to 60 s for that project only, spread ±25%. */
const failedRunBackoff: BackoffPolicy = { baseMs: 1_000, maxMs: 60_000, jitter: 'spread' };

/**
 * Runs each project on its own schedule: at most one run per project at a time
 * (on top of the per-poll mutex, so exactly-once is kept), at most `limit` projects
 * at once, and a slow request delays only its own project. Costs no request of its
 * own: it only decides when `runProject` starts.
 */
export class ProjectRuns {
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #failures = new Map<string, { count: number; retryAt: number }>();
  /**
   * Each project's due time as of its last change. A project's due time changes only
   * in its own run, or through this class (a change signal, a check releasing it) or
   * `invalidate` (an operator replaced its key): recomputing all of them at every
   * wake cost a third of the CPU at 1,000 projects (two scans per finished run).
   */
  readonly #dueCache = new Map<string, number>();
  /** Projects waiting for their `ready` promise (their start-up key check): never started. */
  readonly #held = new Set<string>();

  constructor(
    private readonly ctx: EngineContext,
    private readonly sink: EventSink,
    private readonly limit: number,
    /** Called whenever a run ends: the loop re-reads the next due time. */
    private readonly onSettled: () => void = () => {},
  ) {}

  /**
   * Holds `linkCaption` until `ready` settles: `true` releases it (due at once), `false`
   * drops it (`drop` removes its runtime), a rejection releases it (an unverified check
   * must not stop polling). Only that project waits: the others run meanwhile.
   */
  holdUntil(linkCaption: string, ready: Promise<boolean>, drop: (linkCaption: string) => void): void {
    this.#held.add(linkCaption);
    ready.then(
      (ok) => {
        this.#held.delete(linkCaption);
        this.#dueCache.delete(linkCaption);
        if (!ok) drop(linkCaption);
        this.onSettled();
      },
      () => {
        this.#held.delete(linkCaption);
        this.#dueCache.delete(linkCaption);
        this.onSettled();
      },
    );
  }

  /** Projects running now. */
  get running(): number {
    return this.#inFlight.size;
  }

  /**
   * Starts the due projects that are not running, longest overdue first, up to the
   * concurrency limit; does not wait for them. Longest overdue first: with hundreds of
   * projects the ones not polled yet at start-up (due since the start) go before the
   * re-polls of those already running, instead of waiting behind them in config order.
   */
  startDue(): void {
    if (this.#inFlight.size >= this.limit) return;
    const now = this.ctx.clock.now();
    const due: { rt: ProjectRuntime; at: number }[] = [];
    for (const rt of this.ctx.runtimes.values()) {
      if (this.#inFlight.has(rt.config.linkCaption) || this.#held.has(rt.config.linkCaption)) continue;
      const at = this.#dueAt(rt);
      if (at <= now) due.push({ rt, at });
    }
    due.sort((a, b) => a.at - b.at);
    for (const { rt } of due) {
      if (this.#inFlight.size >= this.limit) return;
      this.#start(rt, true);
    }
  }

  /**
   * Runs every project that is not running now (due or not: a run only does what
   * is due), and waits for those and the ones already running. Rejects with the
   * first failure (each project still backs off on its own).
   */
  async runAll(): Promise<void> {
    const runs: Promise<void>[] = [];
    for (const rt of this.ctx.runtimes.values()) {
      if (this.#held.has(rt.config.linkCaption)) continue;
      runs.push(this.#inFlight.get(rt.config.linkCaption) ?? this.#start(rt, false));
    }
    await Promise.all(runs);
  }

  /**
   * The User key's change signal read this project's counts (user-signal.ts). The read opens a
   * window to the next one, over which the key's fundings polls are spread evenly; a read that saw
   * the counts move may ask for a poll now (signal-interleave.ts), which goes through the key's
   * gate like any other. One that saw no change was a look at the list as good as a poll, so the
   * next poll moves to the window's first slot: never later than twice the interval after the last
   * poll, so a signal that stopped seeing changes cannot hold the feed. A paused project or a
   * switched-off feed ignores it. Returns whether a poll was moved forward.
   */
  fundingsLooked(linkCaption: string, signalIntervalMs: number, moved: boolean): boolean {
    const rt = this.ctx.runtimes.get(linkCaption);
    if (rt === undefined || rt.paused !== null) return false;
    const f = feedOf(rt, 'fundings');
    const now = this.ctx.clock.now();
    const window = openSignalWindow(
      f.signalWindow,
      { at: now, intervalMs: signalIntervalMs },
      f.intervalMs,
      rt.arrivals.rate(now),
    );
    f.signalWindow = window;
    const pollNow = moved;
    if (f.disabledReason !== undefined || f.lastSuccessAt === null || f.failures > 0) return false;
    if (pollNow) {
      if (f.dueAt <= now) return false;
      f.dueAt = now;
      const budget = this.ctx.api.budget(rt.config.key) ?? assumedBudget(now);
      f.signalPolls?.record(budget.dayResetAt, Math.max(1, f.requestsPerPoll));
    } else {
      const slot = nextPollInWindow(window, now) ?? f.dueAt;
      const due = Math.min(slot, f.lastSuccessAt + SIGNAL_TRUSTED_FOR_MS);
      f.dueAt = Math.max(moved ? Math.min(due, f.dueAt) : due, this.ctx.api.pausedUntil(rt.config.key));
    }
    this.#dueCache.delete(linkCaption);
    return pollNow;
  }

  /** Something outside a run moved this project's due time (an operator replaced its key). */
  invalidate(linkCaption: string): void {
    this.#dueCache.delete(linkCaption);
  }

  /** Resolves once no run is in flight (for a clean stop). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight.values()]);
  }

  /** Epoch ms of the earliest due work of a project that is not running (running ones wake the loop when done). */
  nextDueAt(): number {
    let next = Number.POSITIVE_INFINITY;
    for (const rt of this.ctx.runtimes.values()) {
      const lc = rt.config.linkCaption;
      if (!this.#inFlight.has(lc) && !this.#held.has(lc)) next = Math.min(next, this.#dueAt(rt));
    }
    return Number.isFinite(next) ? next : this.ctx.clock.now() + 60_000;
  }

  #dueAt(rt: ProjectRuntime): number {
    const lc = rt.config.linkCaption;
    const cached = this.#dueCache.get(lc);
    if (cached !== undefined) return cached;
    const at = Math.max(projectDueAt(this.ctx, rt), this.#failures.get(lc)?.retryAt ?? 0);
    this.#dueCache.set(lc, at);
    return at;
  }

  /** `swallow`: the loop logs and backs off; an explicit runAll also rejects. */
  #start(rt: ProjectRuntime, swallow: boolean): Promise<void> {
    const lc = rt.config.linkCaption;
    const run = (async () => {
      try {
        await runProject(this.ctx, rt, this.sink);
        this.#failures.delete(lc);
      } catch (error) {
        const count = (this.#failures.get(lc)?.count ?? 0) + 1;
        const retryAt =
          this.ctx.clock.now() + backoffMs(failedRunBackoff, count, () => this.ctx.random.next());
        this.#failures.set(lc, { count, retryAt });
        this.ctx.logger.error(
          { project: lc, err: error instanceof Error ? error.message : String(error), failedRuns: count },
          'project run failed: retrying with backoff',
        );
        if (!swallow) throw error;
      } finally {
        this.#dueCache.delete(lc);
        this.#inFlight.delete(lc);
        this.onSettled();
      }
    })();
    this.#inFlight.set(lc, run);
    this.#dueCache.delete(lc);
    // The loop does not await a run; its failure is logged above, never unhandled.
    run.catch(() => {});
    return run;
  }
}
