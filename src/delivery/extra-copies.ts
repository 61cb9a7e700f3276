import { type ChannelRef, channelKey, errorSummary } from '../core/index.js';
import type { CopySweep } from './copy-looks.js';
import type { LaneDeps } from './lane-deps.js';
import type { EditTask, LaneItem } from './lane-item.js';
import type { Sighting, ThreadTarget } from './ports.js';

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
  sweep?: CopySweep;
}

/** After the late-landing span, a watch keeps this long for its last look (a minute's budget, a page or two). */
const lastLookGraceMs = 3 * 60_000;

/**
 * A channel's extra copies: a post the platform landed late (its answer lost, the pipeline decided it absent
 * and posted it again) stands beside the repeat. The ledger names the copy that counts (corrections edit it,
 * a batch's names continue in its thread); any other copy of the delivery found later is removed (the
 * poster's `remove`, as an edit task of the lane: retried, ordered after the post).
 *
 * Found by the platform's events (witness.ts: sighted at once, in this process or stored by another), and by
 * looks while a delivery posted again is watched (until the poster's late-landing span after the first
 * doubtful attempt, plus a last look): those yield the budget to doubts of any channel of the scope.
 *
 * Cost: nothing while no delivery was posted again; per repeat one store read (stored sightings) and, for the
 * watch, a look per budget interval the scope leaves free (Discord: every 5 s for the 90 s span; Slack: one or
 * two in its minute budget), one request per copy removed.
 */
export class ExtraCopies {
  readonly #watches = new Map<string, Watch>();
  readonly #removed = new Set<string>();

  constructor(
    private readonly channel: ChannelRef,
    private readonly deps: LaneDeps,
    private readonly enqueue: (task: EditTask) => void,
    private readonly wakeAt: (at: number) => void,
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

  /** Watches whose look is due: one look each (when the budget is free), copies removed, done at the end. */
  async handle(due: readonly Watch[]): Promise<void> {
    const { clock, resolver } = this.deps;
    const poster = this.deps.posterFor(this.channel.platform);
    for (const w of due) {
      const now = clock.now();
      if (!poster?.doubt || now >= w.until + lastLookGraceMs) {
        this.#watches.delete(w.item.key.id);
        continue;
      }
      try {
        const found = await resolver.lookForCopies(poster, this.channel, w.thread, {
          key: w.item.idempotencyKey,
          messages: [await w.item.render(false), await w.item.render(true)],
          from: w.from,
          ...(w.sweep ? { sweep: w.sweep } : {}),
        });
        this.remove(w.item.key.id, w.canonical, found.copies, 'looked');
        if (found.sweep) w.sweep = found.sweep;
        else if (found.lookedAt !== undefined) delete w.sweep;
        // Read to its start after the span ended: nothing of it can land unseen any more.
        if (found.lookedAt !== undefined && found.complete && found.lookedAt >= w.until) {
          this.#watches.delete(w.item.key.id);
          continue;
        }
        w.dueAt = found.nextAt;
      } catch (error) {
        this.deps.logger.warn(
          { channel: channelKey(this.channel), id: w.item.key.id, ...errorSummary(error) },
          'look for a late copy failed: tried again later',
        );
        w.dueAt = clock.now() + 60_000;
      }
      this.wakeAt(w.dueAt);
    }
  }

  /** Removes every listed copy of delivery `id` that is not the ledger's (each once), as an edit task of the lane. */
  remove(
    id: string,
    canonical: string | undefined,
    copies: readonly string[],
    how: 'sighted' | 'looked',
  ): void {
    const poster = this.deps.posterFor(this.channel.platform);
    // Without the ledger's copy named, which one counts cannot be told: nothing is removed.
    if (canonical === undefined) return;
    for (const messageId of copies) {
      if (messageId === canonical || this.#removed.has(messageId)) continue;
      this.#removed.add(messageId);
      if (this.#removed.size > 1_000) this.#removed.delete(this.#removed.values().next().value as string);
      const remove = poster?.remove?.bind(poster);
      if (!remove) {
        this.deps.logger.warn(
          { channel: channelKey(this.channel), id, messageId },
          'an extra copy of a notice stands: this platform cannot remove it',
        );
        continue;
      }
      this.enqueue({
        type: 'edit',
        label: `remove extra copy ${messageId} of ${id}`,
        run: () => remove(this.channel, messageId),
        settle: (done) => {
          if (!done) return;
          this.deps.logger.info?.(
            { channel: channelKey(this.channel), id, messageId, how },
            'extra copy of a notice removed (the platform landed a post late, beside its repeat)',
          );
          this.deps.observer.extraCopyRemoved?.({ channel: this.channel, id, messageId, how });
        },
      });
    }
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
