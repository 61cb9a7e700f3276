import { type ChannelRef, channelKey } from '../domain/channels.js';
import { errorSummary } from '../domain/error-summary.js';
import { type BackoffPolicy, backoffMs } from '../lib/backoff.js';
import type { LaneDeps } from './lane-deps.js';
import type { LaneItem } from './lane-item.js';

/**
 * 2 s doubling to 10 s: a confirmation is one small write, and until it lands the record (and `/notices`) says
 * "in doubt" to every reader; a store outage of 45 s is thus confirmed at most ~12 s after it ends.
 */
export const confirmRetryBackoff: BackoffPolicy = { baseMs: 2_000, maxMs: 10_000, jitter: 'spread' };

/** A post the platform confirmed (or a look found) whose confirming write the store refused. */
interface Unconfirmed {
  readonly item: LaneItem;
  readonly messageId: string | undefined;
  /** The attempt the confirmation is of: written only while the record still says this attempt is in doubt. */
  readonly attemptStartedAt: number | undefined;
  attempts: number;
  dueAt: number;
}

/**
 * The confirmations of one channel lane that the store could not take yet. A post is known to be in the channel
 * (its message id, notice or batch alike), so it is never posted again; only its record is behind. It is kept
 * here and written when the store answers again (at the first write of the lane that succeeds, else with
 * {@link confirmRetryBackoff}), while the lane goes on with other items. The item is settled (done for the
 * outbox, a batch closed, a digest counted sent) only once its record says posted, so a kill -9 before then
 * leaves the record `attempting` and the event or batch offered again: the next process decides it by a look,
 * as any doubt.
 *
 * Cost: nothing while the store answers; per kept confirmation one failed write per retry during the outage,
 * and once it answers a claim, a read and the write.
 */
export class PendingConfirmations {
  readonly #pending = new Map<string, Unconfirmed>();
  #writing = false;
  #again = false;

  constructor(
    private readonly channel: ChannelRef,
    private readonly deps: LaneDeps,
    /** The lane's name: this one's wake-up is named after it. */
    private readonly laneName: string,
  ) {}

  get size(): number {
    return this.#pending.size;
  }

  /** Writes the confirmation and settles the item as posted; when the store refuses, keeps it (see above). */
  async confirm(item: LaneItem, messageId: string | undefined): Promise<void> {
    try {
      item.record = await this.deps.ledger.confirm(item.key, messageId);
    } catch (error) {
      this.deps.logger.warn(
        { channel: channelKey(this.channel), id: item.key.id, messageId, ...errorSummary(error) },
        'notice posted but its confirmation could not be stored: kept and written when the store answers again (never posted again; after a restart a look decides it)',
      );
      const dueAt = this.deps.clock.now() + this.#wait(1);
      const { attemptStartedAt } = item.record ?? {};
      this.#pending.set(item.key.id, { item, messageId, attemptStartedAt, attempts: 1, dueAt });
      this.#arm();
      return;
    }
    item.settle({ kind: 'posted', messageId });
  }

  /** A write of the lane just landed: the store answers again, the kept confirmations are written now. */
  storeAnswered(): void {
    if (this.#pending.size === 0) return;
    const now = this.deps.clock.now();
    for (const p of this.#pending.values()) p.dueAt = Math.min(p.dueAt, now);
    this.#arm();
  }

  #wait(attempts: number): number {
    return backoffMs(confirmRetryBackoff, attempts, () => this.deps.random.next());
  }

  #arm(): void {
    if (this.#pending.size === 0) return;
    const at = Math.min(...[...this.#pending.values()].map((p) => p.dueAt));
    this.deps.wakeups.at(`confirm:${this.laneName}`, at, () => void this.deps.track(this.#writeDue()));
  }

  async #writeDue(): Promise<void> {
    if (this.#writing) {
      this.#again = true;
      return;
    }
    this.#writing = true;
    try {
      do {
        this.#again = false;
        const now = this.deps.clock.now();
        for (const p of [...this.#pending.values()]) if (p.dueAt <= now) await this.#write(p);
      } while (this.#again);
    } finally {
      this.#writing = false;
      this.#arm();
    }
  }

  async #write(p: Unconfirmed): Promise<void> {
    const { ledger, clock } = this.deps;
    const { key } = p.item;
    let claimed = false;
    try {
      // Under the delivery's claim: another replica may be deciding it meanwhile (a lease changing hands).
      claimed = await ledger.claim(key);
      if (!claimed) {
        p.dueAt = clock.now() + this.#wait(p.attempts);
        return;
      }
      const record = await ledger.get(key);
      const ours =
        record?.state === 'attempting' &&
        (p.attemptStartedAt === undefined || record.attemptStartedAt === p.attemptStartedAt);
      // Not ours any more: another process decided the doubt (found it, or began another attempt) and its
      // record stands; the post is in the channel all the same.
      if (ours) p.item.record = await ledger.confirm(key, p.messageId);
      else if (record) p.item.record = record;
      this.#pending.delete(key.id);
      this.deps.logger.info?.(
        { channel: channelKey(this.channel), id: key.id, written: ours, attempts: p.attempts },
        ours
          ? 'confirmation of a posted notice stored after the store answered again'
          : 'confirmation of a posted notice not needed: its record was decided meanwhile',
      );
      const messageId = record?.state === 'posted' ? record.messageId : p.messageId;
      p.item.settle({ kind: 'posted', messageId });
    } catch {
      p.attempts += 1;
      p.dueAt = clock.now() + this.#wait(p.attempts);
    } finally {
      if (claimed) await ledger.release(key).catch(() => {});
    }
  }
}
