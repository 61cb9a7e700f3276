import { type ChannelRef, channelKey } from '../domain/channels.js';
import { errorSummary } from '../domain/error-summary.js';
import { backoffMs } from '../lib/backoff.js';
import { ChannelUnavailableError } from './channel-unavailable-error.js';
import type { DeliveryRecord } from './delivery-ledger.js';
import { DeliveryNotPostedError } from './delivery-not-posted-error.js';
import { type LaneDeps, laneRetryBackoff } from './lane-deps.js';
import type { LaneItem } from './lane-item.js';
import { isOlderAttemptCopy } from './older-attempt.js';
import type { ChannelPoster, Sighting } from './ports.js';
import { NotPostedYetError } from './post-once.js';

/** A delivery set aside: in doubt, refused for now, or claimed by another replica. */
interface Waiting {
  readonly item: LaneItem;
  readonly reason: 'doubt' | 'retry' | 'claimed';
  dueAt: number;
  attempts: number;
  /** Woken once when the witness passed where its post would have landed. */
  silenceWoken?: boolean;
  /** The idempotency key of what it hangs on (a daily thread's parent in doubt): its sighting wakes it. */
  awaits?: string;
}

/**
 * A channel lane's deliveries that are not in its queue any more: in doubt (decided by
 * the doubt resolver: found, or posted again with its original time), refused for now
 * (retried with the one backoff helper), or claimed by another replica. Each has its
 * time; one failing longer than the lane's limit, or past its own `giveUpAt`, is given up
 * loudly. Later notices of the channel never wait for these.
 */
export class SetAside {
  readonly #waiting = new Map<string, Waiting>();

  constructor(
    private readonly channel: ChannelRef,
    private readonly deps: LaneDeps,
    private readonly wakeAt: (at: number) => void,
    private readonly block: () => void,
    /** A doubt was decided found: its record says posted; other copies the platform showed are removed. */
    private readonly found: (
      item: LaneItem,
      messageId: string | undefined,
      others: readonly string[],
    ) => void,
    /** Writes a found post's confirmation and settles it (pending-confirmations.ts: kept while the store refuses). */
    private readonly confirm: (item: LaneItem, messageId: string | undefined) => Promise<void>,
  ) {}

  get size(): number {
    return this.#waiting.size;
  }

  due(now: number): Waiting[] {
    return [...this.#waiting.values()].filter((w) => w.dueAt <= now);
  }

  times(): number[] {
    return [...this.#waiting.values()].map((w) => w.dueAt);
  }

  put(item: LaneItem, reason: Waiting['reason'], dueAt: number): void {
    const previous = this.#waiting.get(item.key.id);
    this.#waiting.set(item.key.id, { item, reason, dueAt, attempts: previous?.attempts ?? 0 });
    this.wakeAt(dueAt);
  }

  /**
   * An attempt ended in doubt: looked for at once the first time; when a look found the
   * earlier attempt absent and the repeat is in doubt again (a channel answering 5xx to
   * every post), the next look waits with the one backoff, so a broken channel costs a
   * few requests a minute, not one every two seconds.
   */
  inDoubt(item: LaneItem): void {
    item.doubts = (item.doubts ?? 0) + 1;
    item.firstDoubtAt ??= item.record?.attemptStartedAt ?? this.deps.clock.now();
    const wait =
      item.doubts > 1 ? backoffMs(laneRetryBackoff, item.doubts - 1, () => this.deps.random.next()) : 0;
    this.put(item, 'doubt', this.deps.clock.now() + wait);
  }

  /**
   * The workspace's events have shown posts up to `passed` (the platform's clock): a doubt whose post would
   * have landed by then is decided now (the resolver holds the rule; this only wakes it, once).
   */
  witnessPassed(
    passed: number,
    support: { readonly settleMs: number; readonly clockMarginMs?: number },
  ): void {
    const now = this.deps.clock.now();
    for (const w of this.#waiting.values()) {
      const started = w.item.record?.attemptStartedAt;
      if (w.reason !== 'doubt' || w.silenceWoken || started === undefined || w.dueAt <= now) continue;
      const landed = (w.item.landsBy ?? started + support.settleMs) + (support.clockMarginMs ?? 0);
      if (passed < landed) continue;
      w.silenceWoken = true;
      w.dueAt = now;
      this.wakeAt(now);
    }
  }

  /**
   * The platform showed one of our messages: a doubt it may decide is looked at now; a late copy of an attempt
   * older than the doubt's latest is handed to `olderCopy` instead (older-attempt.ts), and decides nothing.
   */
  sighted(
    sighting: Sighting,
    markOf: (key: string) => string | undefined,
    olderCopy: (id: string) => void,
  ): boolean {
    let matched = false;
    for (const w of this.#waiting.values()) {
      const key = w.item.idempotencyKey;
      const awaits = w.awaits;
      if (awaits && (sighting.key === awaits || (sighting.mark && sighting.mark === markOf(awaits)))) {
        // Its parent was seen: decided at once by the sighting. Not "matched": the intake still stores it for
        // whichever replica decides the parent.
        w.dueAt = this.deps.clock.now();
        this.wakeAt(w.dueAt);
        continue;
      }
      if (w.reason !== 'doubt' || (sighting.key !== key && (!sighting.mark || sighting.mark !== markOf(key))))
        continue;
      matched = true;
      if (isOlderAttemptCopy(sighting, w.item.record, this.deps.witness)) {
        olderCopy(w.item.key.id);
        continue;
      }
      w.dueAt = this.deps.clock.now();
      this.wakeAt(w.dueAt);
    }
    return matched;
  }

  /**
   * A step before the post failed: the store (tried again with the one backoff), or the message it hangs on is
   * not posted yet (a daily thread's parent in doubt: tried again when the doubt resolver can decide the parent,
   * or at once when the parent is sighted; never every few seconds in between).
   */
  failedBeforePosting(item: LaneItem, error: unknown, record: DeliveryRecord | undefined): void {
    const summary = { channel: channelKey(this.channel), id: item.key.id, ...errorSummary(error) };
    if (!(error instanceof NotPostedYetError)) {
      this.deps.logger.warn(summary, 'delivery step failed before posting: retried with backoff');
      this.retryLater(item, record);
      return;
    }
    const dueAt = Math.max(this.deps.clock.now() + 1_000, error.retryAt);
    if (error.cause !== undefined)
      this.deps.logger.warn(
        { ...summary, ...errorSummary(error.cause) },
        'the message this notice goes under (a daily thread parent) is in doubt: looked for before any repeat',
      );
    else
      this.deps.logger.info?.(
        { ...summary, retryAt: new Date(dueAt).toISOString() },
        'notice waits for the message it goes under (a daily thread parent not posted yet)',
      );
    item.record = record;
    const attempts = this.#waiting.get(item.key.id)?.attempts ?? 0;
    this.#waiting.set(item.key.id, { item, reason: 'retry', dueAt, attempts, awaits: error.awaits });
    this.wakeAt(dueAt);
  }

  retryLater(item: LaneItem, record: DeliveryRecord | undefined): void {
    const previous = this.#waiting.get(item.key.id);
    const attempts = (previous?.attempts ?? 0) + 1;
    const dueAt =
      this.deps.clock.now() + backoffMs(laneRetryBackoff, attempts, () => this.deps.random.next());
    item.record = record;
    this.#waiting.set(item.key.id, { item, reason: 'retry', dueAt, attempts });
    this.wakeAt(dueAt);
  }

  /** Those whose time has come: given up, decided by a look, or posted again (`attempt`). */
  async handle(
    due: readonly Waiting[],
    attempt: (item: LaneItem, late: boolean) => Promise<void>,
  ): Promise<void> {
    const { clock } = this.deps;
    const doubts: Waiting[] = [];
    for (const w of due) {
      const since = w.item.record?.failingSince ?? w.item.record?.attemptStartedAt;
      const tooLong = since !== undefined && clock.now() - since >= this.deps.giveUpAfterMs;
      if (tooLong || (w.item.giveUpAt !== undefined && clock.now() >= w.item.giveUpAt)) {
        this.#waiting.delete(w.item.key.id);
        await this.#abandon(w.item);
      } else if (w.reason === 'doubt') {
        doubts.push(w);
      } else {
        this.#waiting.delete(w.item.key.id);
        await attempt(w.item, w.reason === 'retry');
      }
    }
    if (doubts.length === 0) return;
    // One look serves every doubt of the channel: those not due yet are decided (or told to wait) with them.
    for (const w of this.#waiting.values()) {
      if (w.reason === 'doubt' && !doubts.includes(w)) doubts.push(w);
    }
    await this.#resolve(doubts, attempt).catch(async (error: unknown) => {
      if (error instanceof ChannelUnavailableError) {
        await this.deps.cannotPost(this.channel, error);
        this.block();
        for (const w of doubts) w.dueAt = clock.now() + 60_000;
        return;
      }
      // The look could not be made: after the platform's Retry-After (a 429), else with backoff.
      const retryAfter = error instanceof DeliveryNotPostedError ? error.retryAfterMs : undefined;
      for (const w of doubts) {
        w.attempts += 1;
        w.dueAt =
          clock.now() +
          (retryAfter ?? backoffMs(laneRetryBackoff, w.attempts, () => this.deps.random.next()));
      }
    });
    const still = doubts.filter((w) => this.#waiting.get(w.item.key.id) === w);
    if (still.length > 0) this.wakeAt(Math.min(...still.map((w) => w.dueAt)));
  }

  async #resolve(doubts: readonly Waiting[], attempt: (item: LaneItem, late: boolean) => Promise<void>) {
    const { clock, resolver, observer } = this.deps;
    const poster = this.deps.posterFor(this.channel.platform);
    if (!poster) return;
    // One look per thread (or the channel) covers every doubt in it.
    const byThread = new Map<string, Waiting[]>();
    for (const w of doubts) {
      const at = w.item.record?.thread?.parentMessageId ?? '';
      byThread.set(at, [...(byThread.get(at) ?? []), w]);
    }
    for (const group of byThread.values()) {
      const thread = group[0]?.item.record?.thread;
      const pending = await Promise.all(
        group.map(async (w) => ({
          key: w.item.idempotencyKey,
          startedAt: w.item.record?.attemptStartedAt ?? clock.now(),
          ...(w.item.landsBy !== undefined ? { landsBy: w.item.landsBy } : {}),
          ...(w.item.firstDoubtAt !== undefined ? { firstStartedAt: w.item.firstDoubtAt } : {}),
          ...markOf(poster, w.item.idempotencyKey),
          message: await w.item.render(false),
          ...(w.item.reposted ? { alsoAs: [await w.item.render(true)] } : {}),
        })),
      );
      const decisions = await resolver.decide(poster, this.channel, thread, pending);
      for (const w of group) {
        const decision = decisions.get(w.item.idempotencyKey);
        if (!decision || decision.kind === 'wait') {
          w.dueAt = decision?.until ?? clock.now() + 60_000;
          continue;
        }
        this.#waiting.delete(w.item.key.id);
        const info = {
          channel: this.channel,
          id: w.item.key.id,
          doubtMs: clock.now() - (w.item.record?.attemptStartedAt ?? clock.now()),
        };
        this.deps.logger.info?.(
          { ...info, channel: channelKey(this.channel), outcome: decision.kind, by: decision.by },
          decision.kind === 'posted'
            ? 'notice in doubt had landed: not posted again'
            : 'notice in doubt had not landed: posted now',
        );
        if (decision.kind === 'posted') {
          // Off the set-aside list already: a confirmation the store refuses is kept, never lost (seed 169).
          await this.confirm(w.item, decision.messageId);
          observer.doubtResolved?.({ ...info, outcome: 'found' });
          this.found(w.item, decision.messageId, decision.others ?? []);
        } else {
          observer.doubtResolved?.({ ...info, outcome: 'absent' });
          await attempt(w.item, true);
        }
      }
    }
  }

  async #abandon(item: LaneItem): Promise<void> {
    this.deps.logger.error(
      { channel: channelKey(this.channel), id: item.key.id, failingForMs: this.deps.giveUpAfterMs },
      'notice given up for this channel after failing too long (later notices went on)',
    );
    await this.deps.ledger.abandon(item.key).catch(() => {});
    this.deps.observer.abandoned?.({ channel: this.channel, kind: item.kind, id: item.key.id });
    item.settle({ kind: 'abandoned' });
  }
}

/** The doubt's mark, when the poster's platform names deliveries by one (Discord's nonce). */
function markOf(poster: ChannelPoster, key: string): { mark?: string } {
  const mark = poster.doubt?.markOf?.(key);
  return mark === undefined ? {} : { mark };
}
