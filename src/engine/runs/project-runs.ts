import type { EventSink } from '../../domain/event-sink.js';
import { type BackoffPolicy, backoffMs } from '../../lib/backoff.js';
import { MinHeap } from '../../lib/min-heap.js';
import { publishStatus } from '../health/status-board.js';
import type { EngineContext } from '../project/engine-context.js';
import type { ProjectRuntime } from '../project/project-runtime.js';
import { assumedBudget } from '../schedule/credential-gate.js';
import { feedOf } from '../schedule/schedule-slice.js';
import { nextPollInWindow, openSignalWindow } from '../schedule/signal-interleave.js';
import { projectDueAt, runProject } from './scheduler.js';

/**
 * A live change signal holds the fundings polls back at most this long after the last one: a
 * signal whose counts stopped moving (a platform fault) cannot hold the feed longer.
 */
const SIGNAL_TRUSTED_FOR_MS = 10 * 60_000;

/** After a failed run of one project: 1 s doubling to 60 s for that project only, spread ±25%. */
const failedRunBackoff: BackoffPolicy = { baseMs: 1_000, maxMs: 60_000, jitter: 'spread' };

/** A project's due time as queued; `order` breaks ties in the order projects were queued (config order at start). */
interface QueuedRun {
  readonly at: number;
  readonly order: number;
  readonly linkCaption: string;
}

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
  /** Projects whose due time changed since it was queued: computed again (and queued) before the next look. */
  readonly #changed = new Set<string>();
  /**
   * The due times, earliest first. A wake looks at the top only: scanning every project at every wake
   * (each finished run wakes the loop) was half of a replica's CPU at 3,000 projects (bench scaleRedis).
   * An entry whose project's due time changed since stays until it reaches the top and is dropped there.
   */
  readonly #queue = new MinHeap<QueuedRun>((a, b) => a.at < b.at || (a.at === b.at && a.order < b.order));
  #queued = 0;
  #seeded = false;
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
        this.#dueChanged(linkCaption);
        if (!ok) drop(linkCaption);
        this.onSettled();
      },
      () => {
        this.#held.delete(linkCaption);
        this.#dueChanged(linkCaption);
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
    this.#queueChanged();
    const now = this.ctx.clock.now();
    while (this.#inFlight.size < this.limit) {
      const next = this.#queue.peek();
      if (next === undefined || next.at > now) return;
      this.#queue.pop();
      const rt = this.#current(next);
      if (rt !== undefined) this.#start(rt, true);
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
   * next poll moves to the window's first slot: never later than {@link SIGNAL_TRUSTED_FOR_MS} after
   * the last poll, so a signal that stopped seeing changes cannot hold the feed. A paused project or a
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
    if (f.disabledReason !== undefined || f.lastSuccessAt === null || f.failures > 0) return false;
    if (moved) {
      if (f.dueAt <= now) return false;
      f.dueAt = now;
      const budget = this.ctx.api.budget(rt.config.key) ?? assumedBudget(now);
      f.signalPolls?.record(budget.dayResetAt, Math.max(1, f.requestsPerPoll));
    } else {
      const slot = nextPollInWindow(window, now) ?? f.dueAt;
      f.dueAt = Math.max(
        Math.min(slot, f.lastSuccessAt + SIGNAL_TRUSTED_FOR_MS),
        this.ctx.api.pausedUntil(rt.config.key),
      );
    }
    this.#dueChanged(linkCaption);
    return moved;
  }

  /**
   * Runs the project now, or joins its run in flight, and resolves when that run is done (never rejects: a
   * failed run backs off as in the loop). A project held for its start-up key check is not started.
   */
  async runNow(linkCaption: string): Promise<void> {
    const rt = this.ctx.runtimes.get(linkCaption);
    if (rt === undefined || this.#held.has(linkCaption)) return;
    await (this.#inFlight.get(linkCaption) ?? this.#start(rt, true));
  }

  /** Something outside a run moved this project's due time (an operator replaced its key). */
  invalidate(linkCaption: string): void {
    this.#dueChanged(linkCaption);
  }

  /** Resolves once the project has no run in flight (never rejects: a failed run was logged where it ran). */
  async settled(linkCaption: string): Promise<void> {
    await Promise.allSettled([this.#inFlight.get(linkCaption)]);
  }

  /** Resolves once no run is in flight (for a clean stop). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight.values()]);
  }

  /** Epoch ms of the earliest due work of a project that is not running (running ones wake the loop when done). */
  nextDueAt(): number {
    this.#queueChanged();
    for (let next = this.#queue.peek(); next !== undefined; next = this.#queue.peek()) {
      if (this.#current(next) !== undefined) return next.at;
      this.#queue.pop();
    }
    return this.ctx.clock.now() + 60_000;
  }

  #dueChanged(linkCaption: string): void {
    this.#dueCache.delete(linkCaption);
    this.#changed.add(linkCaption);
  }

  /** Computes and queues the due time of every project that changed (of every project, the first time). */
  #queueChanged(): void {
    if (!this.#seeded) {
      this.#seeded = true;
      for (const linkCaption of this.ctx.runtimes.keys()) this.#changed.add(linkCaption);
    }
    for (const lc of this.#changed) {
      const rt = this.ctx.runtimes.get(lc);
      // Running and held projects are queued when they settle; a removed one is forgotten.
      if (rt === undefined || this.#inFlight.has(lc) || this.#held.has(lc)) continue;
      const at = Math.max(projectDueAt(this.ctx, rt), this.#failures.get(lc)?.retryAt ?? 0);
      this.#dueCache.set(lc, at);
      this.#queue.push({ at, order: this.#queued++, linkCaption: lc });
    }
    this.#changed.clear();
    // Entries overtaken by a change stay until they reach the top: rebuild before they outnumber the projects.
    if (this.#queue.size > 4 * this.ctx.runtimes.size + 64) {
      this.#queue.clear();
      for (const [lc, at] of this.#dueCache) this.#queue.push({ at, order: this.#queued++, linkCaption: lc });
    }
  }

  /** The entry's project when the entry is still its due time and it may start; undefined for an overtaken entry. */
  #current(entry: QueuedRun): ProjectRuntime | undefined {
    const lc = entry.linkCaption;
    if (this.#dueCache.get(lc) !== entry.at || this.#inFlight.has(lc) || this.#held.has(lc)) return undefined;
    return this.ctx.runtimes.get(lc);
  }

  /** `swallow`: the loop logs and backs off; an explicit runAll also rejects. */
  #start(rt: ProjectRuntime, swallow: boolean): Promise<void> {
    const lc = rt.config.linkCaption;
    const run = (async () => {
      try {
        await runProject(this.ctx, rt, this.sink);
        this.#failures.delete(lc);
        // What every replica shows of the project (written only when a reader would see something new).
        await publishStatus(this.ctx, rt);
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
        this.#inFlight.delete(lc);
        this.#dueChanged(lc);
        this.onSettled();
      }
    })();
    this.#inFlight.set(lc, run);
    this.#dueCache.delete(lc);
    this.#changed.delete(lc);
    // The loop does not await a run; its failure is logged above, never unhandled.
    run.catch(() => {});
    return run;
  }
}
