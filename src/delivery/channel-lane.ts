import { type ChannelRef, channelKey } from '../domain/channels.js';
import { errorSummary } from '../domain/error-summary.js';
import { ChannelUnavailableError } from './channel-unavailable-error.js';
import { CopyWatchRunner } from './copy-watch-runner.js';
import type { StoredWatch } from './copy-watch-store.js';
import type { DeliveryRecord } from './delivery-ledger.js';
import { isSettled } from './delivery-ledger.js';
import { DeliveryNotPostedError } from './delivery-not-posted-error.js';
import { ExtraCopies } from './extra-copies.js';
import type { LaneDeps } from './lane-deps.js';
import { runEdit } from './lane-edit.js';
import { answered, answeredLandsWithinMs, describe } from './lane-failure.js';
import type { LaneItem, LaneTask } from './lane-item.js';
import { LaneSightings } from './lane-sightings.js';
import { PendingConfirmations } from './pending-confirmations.js';
import type { ChannelPoster, Sighting } from './ports.js';
import { SetAside } from './set-aside.js';

/**
 * One channel's deliveries, in order, independent of every other channel: a fault
 * here never delays another channel. Within the channel a post that fails or hangs
 * holds later ones for at most `stallMs` (or the platform's Retry-After): the later
 * ones go on, and the failed one is set aside, resolved in the background (a look,
 * or a repeat the platform dedupes) and, if it did not land, posted once more with
 * its original time.
 */
export class ChannelLane {
  readonly #queue: LaneTask[] = [];
  readonly #aside: SetAside;
  readonly #copies: ExtraCopies;
  readonly #sightings: LaneSightings;
  readonly #confirms: PendingConfirmations;
  /** Per queued task: ms it has waited behind other deliveries' faults (the stall figure). */
  readonly #faultWait = new Map<LaneTask, number>();
  #pausedUntil = 0;
  #running = false;
  #blocked = false;

  constructor(
    readonly channel: ChannelRef,
    private readonly deps: LaneDeps,
  ) {
    this.#sightings = new LaneSightings(deps);
    this.#confirms = new PendingConfirmations(channel, deps, this.name);
    // Its watches run beside the lane's attempts (copy-watch-runner.ts), not between them.
    const watches = new CopyWatchRunner(`${this.name}:copies`, deps, () => ({
      channel: channelKey(channel),
    }));
    this.#copies = new ExtraCopies(
      channel,
      deps,
      (at) => watches.wakeAt(at),
      (messageId) => this.#sightings.confirmedAs(messageId),
    );
    watches.attach(this.#copies);
    this.#aside = new SetAside(
      channel,
      deps,
      (at) => this.#wakeAt(at),
      () => this.block(),
      (item, messageId, others) => void this.#copies.posted(item, messageId, others),
      (item, messageId) => this.#confirms.confirm(item, messageId),
    );
  }

  get name(): string {
    return `lane:${channelKey(this.channel)}`;
  }

  /** Tasks queued or set aside, and posts whose confirmation waits for the store. */
  get size(): number {
    return this.#queue.length + this.#aside.size + this.#confirms.size;
  }

  push(task: LaneTask): void {
    this.#queue.push(task);
    this.#faultWait.set(task, 0);
    this.kick();
  }

  /**
   * The platform showed one of our messages in this channel (witness.ts): a doubt it decides is decided now,
   * an extra copy of a post is removed, a post in the air keeps it (stored if its answer is long in coming).
   * False when this lane knows nothing of it (the pipeline then asks the ledger).
   */
  sighted(sighting: Sighting): boolean {
    const markOf = (key: string) => this.deps.posterFor(this.channel.platform)?.doubt?.markOf?.(key);
    const flying = this.#sightings.inFlight(sighting);
    const confirmed = this.#sightings.confirmedOf(sighting);
    if (confirmed && !confirmed.same)
      this.#copies.remove(confirmed.id, confirmed.canonical, [sighting.messageId], 'sighted');
    const doubt = this.#aside.sighted(sighting, markOf, (id) => this.removeOlderCopy(id, sighting));
    const watched = this.#copies.sighted(sighting);
    return flying || confirmed !== undefined || doubt || watched;
  }

  /** The key of a notice held after a doubt that a sighting names by mark only (landed-after-all.ts). */
  heldKeyOf(sighting: Sighting): string | undefined {
    return this.#sightings.heldAs(sighting);
  }

  /** The workspace's events have shown posts up to `passed`: doubts they may decide by silence wake. */
  witnessPassed(passed: number): void {
    const support = this.deps.posterFor(this.channel.platform)?.doubt;
    if (support) this.#aside.witnessPassed(passed, support);
  }

  /** Removes copies of delivery `id` other than the ledger's (`canonical`): see extra-copies.ts. */
  removeCopies(id: string, canonical: string, copies: readonly string[]): void {
    this.#copies.remove(id, canonical, copies, 'sighted');
  }

  /** A late copy of an attempt older than the delivery's latest, in doubt (older-attempt.ts): removed. */
  removeOlderCopy(id: string, sighting: Sighting): void {
    this.#copies.olderAttemptLanded(id, sighting);
  }

  /** A watch for a late copy that an earlier process began (copy-watch-store.ts). */
  resumeWatch(watch: StoredWatch): void {
    this.#copies.resume(watch);
  }

  /** A delivery posted after a doubt outside the lane's own attempts (a daily thread's parent): watched. */
  watchRepost(item: LaneItem, canonical: string | undefined): void {
    void this.#copies.posted(item, canonical);
  }

  /** The channel cannot take posts: queued notices are held as they come up. */
  block(): void {
    this.#blocked = true;
  }

  unblock(): void {
    this.#blocked = false;
    this.kick();
  }

  kick(): void {
    if (this.#running) return;
    this.#running = true;
    void this.deps.track(this.#run()).catch((error: unknown) => {
      this.deps.logger.error(
        { channel: channelKey(this.channel), ...errorSummary(error) },
        'delivery lane failed',
      );
    });
  }

  async #run(): Promise<void> {
    const { clock } = this.deps;
    try {
      for (;;) {
        const now = clock.now();
        const paused = this.#pausedUntil > now;
        const due = paused ? [] : this.#aside.due(now);
        if (due.length > 0) {
          await this.#aside.handle(due, (item, late) => this.#guarded(() => this.#attempt(item, late)));
          continue;
        }
        if (paused) break;
        const task = this.#queue.shift();
        if (!task) break;
        const waited = this.#faultWait.get(task) ?? 0;
        this.#faultWait.delete(task);
        if (task.type === 'edit')
          await this.#guarded(() => runEdit(this.deps, this.name, this.channel, task));
        // A doubt left by an earlier process is decided by a look now, not once access returns (seed 120).
        else if (this.#blocked && task.hold && task.record?.state !== 'attempting') await this.#hold(task);
        else await this.#guarded(() => this.#attempt(task, false, waited));
      }
    } finally {
      this.#running = false;
      this.#scheduleWake();
    }
  }

  #scheduleWake(): void {
    const now = this.deps.clock.now();
    const paused = this.#pausedUntil > now;
    // While the platform's Retry-After lasts the lane takes nothing up, set-aside work included: waking it
    // for a set-aside delivery due meanwhile would only find it paused again, at once, until the wait ends.
    // The late copies' watches are looks, not posts: they run on their own times (copy-watch-runner.ts).
    const times = this.#aside.times().map((at) => (paused ? Math.max(at, this.#pausedUntil) : at));
    if (paused) times.push(this.#pausedUntil);
    if (this.#queue.length > 0 && !paused) times.push(now);
    if (times.length > 0) this.#wakeAt(Math.min(...times));
  }

  /**
   * Runs one attempt, but lets the lane go on after `stallMs`: the attempt finishes in
   * the background (a hung post ends at its own timeout and is then set aside).
   */
  async #guarded(attempt: () => Promise<boolean>): Promise<void> {
    const { clock } = this.deps;
    const startedAt = clock.now();
    const timer = new AbortController();
    const work = attempt();
    const stalled = await Promise.race([
      work.then(() => false),
      clock.sleep(this.deps.stallMs, timer.signal).then(
        () => true,
        () => false,
      ),
    ]);
    timer.abort(new Error('attempt settled'));
    // A stalled attempt goes on in the background (untracked: it waits on the platform, not on
    // us); when it ends it has confirmed its post or set it aside, and the lane looks again.
    if (stalled) void work.finally(() => this.kick());
    const faulted = stalled || !(await work);
    if (!faulted) return;
    // Everything still queued waited behind this fault.
    const spent = clock.now() - startedAt;
    for (const [task, ms] of this.#faultWait) this.#faultWait.set(task, ms + spent);
    if (stalled) {
      this.deps.observer.failed?.({
        channel: this.channel,
        kind: 'lane',
        how: 'stalled',
        error: 'no answer yet',
      });
    }
  }

  /** Posts one delivery; true when it ended without a fault (posted, or nothing to do). */
  async #attempt(item: LaneItem, late: boolean, waitedBehindFaultsMs = 0): Promise<boolean> {
    const { ledger, clock } = this.deps;
    const poster = this.deps.posterFor(this.channel.platform);
    if (!poster) {
      this.deps.logger.warn(
        { channel: channelKey(this.channel), id: item.key.id },
        'no poster for this platform: notice skipped (is the adapter configured?)',
      );
      item.settle({ kind: 'skipped' });
      return true;
    }
    let claimed: boolean;
    try {
      claimed = await ledger.claim(item.key);
    } catch (error) {
      // The claim could not be stored (Redis gone for a moment): nothing was posted; try again later. Thrown on,
      // it ended the lane with the notice already taken off the queue (bench:replicas: one announced never).
      this.#aside.failedBeforePosting(item, error, item.record);
      return false;
    }
    if (!claimed) {
      // Another replica is posting it now (a lease changing hands): its record will say what happened.
      this.#aside.put(item, 'claimed', clock.now() + 5_000);
      return true;
    }
    let record = item.record;
    try {
      if (ledger.claimsShared) record = await ledger.get(item.key);
      if (isSettled(record)) {
        item.settle({ kind: 'posted', messageId: record?.messageId });
        return true;
      }
      if (record?.state === 'held') {
        item.settle({ kind: 'held' });
        return true;
      }
      if (record?.state === 'attempting' && !late) {
        // Left in doubt by an earlier process: decided by looking, never posted blind.
        item.record = record;
        item.firstDoubtAt ??= record.attemptStartedAt ?? record.at;
        if (record.landsBy !== undefined) item.landsBy = record.landsBy;
        this.#aside.put(item, 'doubt', clock.now());
        return false;
      }
      const thread = await item.target?.();
      const message = await item.render(late);
      record = await ledger.beginAttempt(item.key, record, thread);
      this.#confirms.storeAnswered();
      item.record = record;
      if (item.firstDoubtAt !== undefined) item.reposted = true;
      delete item.landsBy;
      const mark = poster.doubt?.markOf?.(item.idempotencyKey);
      let receipt: Awaited<ReturnType<ChannelPoster['post']>>;
      this.#sightings.started(item.idempotencyKey, mark);
      try {
        const attemptAt = record.attemptStartedAt;
        receipt = await poster.post(this.channel, message, item.idempotencyKey, thread, attemptAt);
      } catch (error) {
        return await this.#failed(item, record, error);
      } finally {
        this.#sightings.ended(item.idempotencyKey);
      }
      this.#sightings.confirmed(item.idempotencyKey, item.key.id, mark, receipt?.messageId);
      this.deps.resolver.notePosted(this.channel, thread);
      this.deps.observer.posted?.({
        channel: this.channel,
        kind: item.kind,
        id: item.key.id,
        latencyMs: clock.now() - item.occurredAt,
        waitedBehindFaultsMs,
        late,
      });
      // Settled once its record says posted; a store that refuses that write keeps it (pending-confirmations.ts).
      await this.#confirms.confirm(item, receipt?.messageId);
      // Posted after a doubt: a late landing of the earlier attempt may stand beside it (removed).
      await this.#copies.posted(item, receipt?.messageId);
      return true;
    } catch (error) {
      // The daily thread's parent refused for access: the channel is closed as for this post (held, re-checked).
      if (error instanceof ChannelUnavailableError) return await this.#failed(item, record, error);
      // The store failed, or the parent it hangs on is not posted yet: nothing was posted; try again later.
      this.#aside.failedBeforePosting(item, error, record);
      return false;
    } finally {
      await ledger.release(item.key).catch(() => {});
    }
  }

  /** Classifies a failed post by what it proves; false (a fault) in every case. */
  async #failed(item: LaneItem, record: DeliveryRecord | undefined, error: unknown): Promise<boolean> {
    const { ledger, clock, observer } = this.deps;
    const summary = { channel: channelKey(this.channel), id: item.key.id, ...errorSummary(error) };
    if (error instanceof ChannelUnavailableError) {
      // Refused before anything was posted: not in doubt (a later try posts without a look first).
      item.record = await ledger.clearAttempt(item.key, record).catch(() => record);
      await this.deps.cannotPost(this.channel, error);
      this.block();
      await this.#hold(item);
      return false;
    }
    if (error instanceof DeliveryNotPostedError) {
      item.record = await ledger.clearAttempt(item.key, record).catch(() => record);
      if (error.retryAfterMs !== undefined && error.retryAfterMs > 0) {
        // The platform's wait: nothing goes to it before then, this one first after it.
        this.#pausedUntil = Math.max(this.#pausedUntil, clock.now() + error.retryAfterMs);
        this.#queue.unshift(item);
        this.#faultWait.set(item, 0);
        observer.failed?.({
          channel: this.channel,
          kind: item.kind,
          how: 'rate-limited',
          error: describe(error),
        });
        return true;
      }
      observer.failed?.({
        channel: this.channel,
        kind: item.kind,
        id: item.key.id,
        how: 'refused',
        error: describe(error),
      });
      this.deps.logger.warn(summary, 'notice refused by the platform: retried with backoff');
      this.#aside.retryLater(item, item.record);
      return false;
    }
    observer.failed?.({
      channel: this.channel,
      kind: item.kind,
      id: item.key.id,
      how: 'doubt',
      error: describe(error),
    });
    this.deps.logger.warn(
      summary,
      'notice delivery in doubt: it is looked for in the channel before any repeat',
    );
    // The platform answered (a 5xx): whatever it did with the post, it did before answering. Stored with the
    // attempt, so a process that takes the doubt over after a kill looks then too, not after the late-landing span.
    if (answered(error)) {
      const landsBy = clock.now() + answeredLandsWithinMs;
      item.landsBy = landsBy;
      if (record) item.record = await ledger.answered(item.key, record, landsBy).catch(() => record);
    }
    this.#aside.inDoubt(item);
    return false;
  }

  async #hold(item: LaneItem): Promise<void> {
    if (!item.hold) {
      item.settle({ kind: 'refused' });
      return;
    }
    if (item.firstDoubtAt !== undefined) {
      const mark = this.deps.posterFor(this.channel.platform)?.doubt?.markOf?.(item.idempotencyKey);
      this.#sightings.held(item.idempotencyKey, mark);
    }
    try {
      const { stored } = await item.hold();
      void stored.then(() => item.settle({ kind: 'held' }));
    } catch (error) {
      this.deps.logger.warn(
        { channel: channelKey(this.channel), id: item.key.id, ...errorSummary(error) },
        'could not hold the notice for the catch-up: retried with backoff',
      );
      this.#aside.retryLater(item, item.record);
    }
  }

  /** Asks the pipeline's timer to resume this lane at `at` (a stalled attempt may set aside after the loop ended). */
  #wakeAt(at: number): void {
    this.deps.wakeups.at(this.name, at, () => this.kick());
  }
}
