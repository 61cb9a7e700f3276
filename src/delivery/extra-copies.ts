import { type ChannelRef, channelKey } from '../domain/channels.js';
import { errorSummary } from '../domain/error-summary.js';
import { backoffMs } from '../lib/backoff.js';
import type { CopySweep } from './copy-looks.js';
import { type StoredWatch, withoutFiles } from './copy-watch-store.js';
import { DeliveryNotPostedError } from './delivery-not-posted-error.js';
import type { LaneDeps } from './lane-deps.js';
import { laneRetryBackoff } from './lane-deps.js';
import type { LaneItem } from './lane-item.js';
import type { ChannelPoster, Sighting, ThreadTarget } from './ports.js';

/** A delivery posted again after a doubt, watched for a late landing of an earlier attempt beside it. */
interface Watch {
  readonly item: LaneItem;
  /** The copy the ledger names (undefined: the poster names none, and nothing can be told apart). */
  readonly canonical: string | undefined;
  readonly thread: ThreadTarget | undefined;
  /** Where the earliest doubtful attempt began: a late copy lands after it. */
  readonly from: number;
  /** Watched (by looks) until then; sightings are handled whenever they come. */
  readonly until: number;
  dueAt: number;
  /** Every message from `from` (less the clock margin) up to this time was read: the next look starts here. */
  readTo?: number;
}

/** Which of the channel's looks a watch's copies are in: the channel itself, or one thread of it. */
const threadKey = (thread: ThreadTarget | undefined) =>
  thread ? `${thread.parentMessageId}/${thread.threadId ?? ''}` : '';

/** A removal that fails is tried this many more times (5 s doubling, or the platform's Retry-After). */
const removeRetries = 4;
/** After the late-landing span, a watch keeps this long for its last look (a minute's budget, a page or two). */
const lastLookGraceMs = 3 * 60_000;

/**
 * A channel's extra copies: a post the platform landed late (its answer lost, the pipeline decided it absent
 * and posted it again) stands beside the repeat. The ledger names the copy that counts (corrections edit it,
 * a batch's names continue in its thread); any other copy of the delivery found later is removed (the
 * poster's `remove`, at once and not behind the lane's posts, retried with the one backoff).
 *
 * Found by the platform's events (witness.ts: sighted at once, in this process or stored by another), and by
 * looks while a delivery posted again is watched (until the poster's late-landing span after the first
 * doubtful attempt, plus a last look): those yield the budget to doubts of any channel of the scope.
 *
 * Cost: nothing while no delivery was posted again; per repeat one store read (stored sightings) and, for the
 * watch, a look per budget interval the scope leaves free (Discord: every 3 s for the 90 s span; Slack: one or
 * two in its minute budget), one request per copy removed.
 */
export class ExtraCopies {
  readonly #watches = new Map<string, Watch>();
  readonly #removed = new Set<string>();
  /** A channel's (or thread's) unfinished look, by threadKey: its next page, and where it began reading. */
  readonly #sweeps = new Map<string, { readonly sweep: CopySweep; readonly from: number }>();

  constructor(
    private readonly channel: ChannelRef,
    private readonly deps: LaneDeps,
    private readonly wakeAt: (at: number) => void,
    /** The delivery (key) this process confirmed under a message id lately: never removed as another's copy. */
    private readonly confirmedAs: (messageId: string) => string | undefined,
  ) {}

  get size(): number {
    return this.#watches.size;
  }

  times(): number[] {
    return [...this.#watches.values()].map((w) => w.dueAt);
  }

  due(now: number): Watch[] {
    return [...this.#watches.values()].filter((w) => w.dueAt <= now);
  }

  /**
   * A delivery in doubt is posted: found, or posted again. Its other copies known now are removed; one that
   * was posted again is watched for a late landing of an earlier attempt.
   */
  async posted(item: LaneItem, canonical: string | undefined, others: readonly string[] = []): Promise<void> {
    const from = item.firstDoubtAt;
    if (from === undefined) return;
    this.remove(item.key.id, canonical, [...others, ...(await this.#sighted(item))], 'sighted');
    const support = this.deps.posterFor(this.channel.platform)?.doubt;
    if (!support || canonical === undefined || !item.reposted) return;
    const until = from + (support.lateLandingMs ?? 0) + (support.clockMarginMs ?? 10_000);
    const watch: Watch = {
      item,
      canonical,
      thread: item.record?.thread,
      from,
      until,
      dueAt: Math.max(this.deps.clock.now() + 1_000, Math.min(until, from + support.settleMs)),
    };
    this.#watches.set(item.key.id, watch);
    this.wakeAt(watch.dueAt);
    const messages = [await item.render(false), await item.render(true)].map(withoutFiles);
    await this.deps.copyWatches
      .add({
        id: item.key.id,
        key: item.idempotencyKey,
        channel: this.channel,
        canonical,
        ...(watch.thread ? { thread: watch.thread } : {}),
        from,
        until,
        messages,
      })
      .catch(() => {});
  }

  /** A watch an earlier process (or another replica) began and did not end: looked after here. */
  resume(stored: StoredWatch): void {
    if (this.#watches.has(stored.id)) return;
    const [first, repeat] = stored.messages;
    const item: LaneItem = {
      type: 'post',
      key: { id: stored.id, channel: this.channel },
      idempotencyKey: stored.key,
      occurredAt: stored.from,
      kind: 'watch',
      record: undefined,
      firstDoubtAt: stored.from,
      reposted: true,
      render: async (late) => (late ? (repeat ?? first) : first) ?? {},
      settle: () => {},
    };
    const dueAt = this.deps.clock.now() + 1_000;
    this.#watches.set(stored.id, {
      item,
      canonical: stored.canonical,
      thread: stored.thread,
      from: stored.from,
      until: stored.until,
      dueAt,
    });
    this.wakeAt(dueAt);
  }

  #end(watch: Watch): void {
    this.#watches.delete(watch.item.key.id);
    void this.deps.copyWatches.remove(watch.item.idempotencyKey).catch(() => {});
  }

  /** The platform showed one of our messages: if it is a copy of a watched delivery, removed at once. */
  sighted(sighting: Sighting): boolean {
    let matched = false;
    for (const w of this.#watches.values()) {
      const { idempotencyKey } = w.item;
      if (sighting.key !== idempotencyKey && (!sighting.mark || sighting.mark !== this.#markOf(w.item)))
        continue;
      matched = true;
      this.remove(w.item.key.id, w.canonical, [sighting.messageId], 'sighted');
    }
    return matched;
  }

  /**
   * Watches whose look is due: one look for all the watches of their channel (or thread), copies removed, each
   * watch done once read to its start past its span. They share the channel's look budget: a look for one watch
   * only left the others waiting their turn, a copy standing a look interval per watch (issue 29: Discord
   * copies stood 4.6 and 5.6 s with two or three watches, against a look every 3 s).
   */
  async handle(due: readonly Watch[]): Promise<void> {
    const { clock } = this.deps;
    const poster = this.deps.posterFor(this.channel.platform);
    const looked = new Set<Watch>();
    for (const w of due) {
      if (looked.has(w) || this.#watches.get(w.item.key.id) !== w) continue;
      if (!poster?.doubt || clock.now() >= w.until + lastLookGraceMs) {
        this.#end(w);
        continue;
      }
      const group = [...this.#watches.values()].filter(
        (o) => threadKey(o.thread) === threadKey(w.thread) && clock.now() < o.until + lastLookGraceMs,
      );
      for (const o of group) looked.add(o);
      await this.#look(poster, w.thread, group);
    }
  }

  /** One look for the copies of a channel's (or thread's) watches: from the earliest place one may land unread. */
  async #look(
    poster: ChannelPoster,
    thread: ThreadTarget | undefined,
    group: readonly Watch[],
  ): Promise<void> {
    const { clock, resolver } = this.deps;
    const scope = threadKey(thread);
    const sweeping = this.#sweeps.get(scope);
    const from = sweeping?.from ?? Math.min(...group.map((o) => o.readTo ?? o.from));
    try {
      const wanted = [];
      for (const o of group)
        for (const late of [false, true])
          wanted.push({ key: o.item.idempotencyKey, message: await o.item.render(late) });
      const found = await resolver.lookForCopies(poster, this.channel, thread, {
        wanted,
        from,
        ...(sweeping ? { sweep: sweeping.sweep } : {}),
      });
      if (found.lookedAt !== undefined) {
        if (found.sweep) this.#sweeps.set(scope, { sweep: found.sweep, from });
        else this.#sweeps.delete(scope);
      }
      for (const o of group) {
        const key = o.item.idempotencyKey;
        // A look matches Discord messages by their embed: one that is another delivery's is not a copy.
        const copies = found.copies
          .filter((c) => c.key === key && [undefined, key].includes(this.confirmedAs(c.messageId)))
          .map((c) => c.messageId);
        this.remove(o.item.key.id, o.canonical, copies, 'looked');
        // Read from where it may land (or was read to): nothing of it before `readTo` can land unseen any more.
        if (found.readTo !== undefined && (o.readTo ?? o.from) >= from)
          o.readTo = Math.max(o.readTo ?? found.readTo, found.readTo);
        if (o.readTo !== undefined && o.readTo >= o.until) {
          this.#end(o);
          continue;
        }
        o.dueAt = found.nextAt;
        // Another thread's watches may share the budget (Slack: the workspace's): these, having looked, go last.
        if (found.lookedAt !== undefined) {
          this.#watches.delete(o.item.key.id);
          this.#watches.set(o.item.key.id, o);
        }
      }
    } catch (error) {
      this.deps.logger.warn(
        { channel: channelKey(this.channel), ids: group.map((o) => o.item.key.id), ...errorSummary(error) },
        'look for late copies failed: tried again later',
      );
      for (const o of group) o.dueAt = clock.now() + 60_000;
    }
    const times = group.filter((o) => this.#watches.get(o.item.key.id) === o).map((o) => o.dueAt);
    if (times.length > 0) this.wakeAt(Math.min(...times));
  }

  /** Removes every listed copy of delivery `id` that is not the ledger's (each once). */
  remove(
    id: string,
    canonical: string | undefined,
    copies: readonly string[],
    how: 'sighted' | 'looked',
  ): void {
    // Without the ledger's copy named, which one counts cannot be told: nothing is removed.
    if (canonical === undefined) return;
    for (const messageId of copies) if (messageId !== canonical) this.#removeOne(id, messageId, how);
  }

  /**
   * A late copy of an attempt older than the delivery's latest, which is still in doubt (older-attempt.ts):
   * removed at once and forgotten by the witness, so it decides nothing; the latest attempt's witnesses decide.
   */
  olderAttemptLanded(id: string, sighting: Sighting): void {
    this.deps.witness.forget(sighting);
    this.deps.logger.info?.(
      { channel: channelKey(this.channel), id, messageId: sighting.messageId },
      'a late copy of an earlier attempt landed while its repeat is in doubt: removed, the repeat decides',
    );
    this.#removeOne(id, sighting.messageId, 'sighted');
  }

  #removeOne(id: string, messageId: string, how: 'sighted' | 'looked'): void {
    if (this.#removed.has(messageId)) return;
    this.#removed.add(messageId);
    if (this.#removed.size > 1_000) this.#removed.delete(this.#removed.values().next().value as string);
    const poster = this.deps.posterFor(this.channel.platform);
    const remove = poster?.remove?.bind(poster);
    if (!remove) {
      this.deps.logger.warn(
        { channel: channelKey(this.channel), id, messageId },
        'an extra copy of a notice stands: this platform cannot remove it',
      );
      return;
    }
    this.#removeNow(id, messageId, how, remove, 0);
  }

  /**
   * Removes one copy at once, not behind the lane's posts (the copy stands already; nothing it could overtake),
   * retried with the one backoff (or the platform's Retry-After) a few times.
   */
  #removeNow(
    id: string,
    messageId: string,
    how: 'sighted' | 'looked',
    remove: (channel: ChannelRef, messageId: string) => Promise<void>,
    attempt: number,
  ): void {
    const { clock, logger, observer, wakeups } = this.deps;
    const summary = { channel: channelKey(this.channel), id, messageId, how };
    void this.deps.track(remove(this.channel, messageId)).then(
      () => {
        logger.info?.(
          summary,
          'extra copy of a notice removed (the platform landed a post late, beside its repeat)',
        );
        observer.extraCopyRemoved?.({ channel: this.channel, id, messageId, how });
      },
      (error: unknown) => {
        if (attempt >= removeRetries) {
          logger.warn(
            { ...summary, ...errorSummary(error) },
            'an extra copy of a notice could not be removed',
          );
          return;
        }
        const retryAfter = error instanceof DeliveryNotPostedError ? error.retryAfterMs : undefined;
        const wait = retryAfter ?? backoffMs(laneRetryBackoff, attempt + 1, () => this.deps.random.next());
        wakeups.at(`remove:${channelKey(this.channel)}:${messageId}`, clock.now() + wait, () =>
          this.#removeNow(id, messageId, how, remove, attempt + 1),
        );
      },
    );
  }

  async #sighted(item: LaneItem): Promise<string[]> {
    const { witness } = this.deps;
    const ids = witness.seen(item.idempotencyKey, this.#markOf(item));
    for (const id of await witness.stored(item.idempotencyKey).catch(() => []))
      if (!ids.includes(id)) ids.push(id);
    return ids;
  }

  #markOf(item: LaneItem): string | undefined {
    return this.deps.posterFor(this.channel.platform)?.doubt?.markOf?.(item.idempotencyKey);
  }
}
