import { z } from 'zod';
import {
  type ChannelRef,
  type CommandCore,
  type CoreLogger,
  channelKey,
  type DailyThreadSettings,
  dailyThreadTexts,
  errorSummary,
} from '../../core/index.js';
import type { SupportDroppedEvent } from '../../domain/events.js';
import { type Clock, systemClock } from '../../lib/clock.js';
import type { KeyValueStore } from '../../lib/store.js';
import { ChannelUnavailableError } from '../channel-unavailable-error.js';
import type { DeliveryLedger } from '../delivery-ledger.js';
import { NoticeDeliveryError, type NoticeRouter } from '../notice-router.js';
import type { ChannelPoster, ThreadTarget } from '../ports.js';
import {
  countIn,
  type DailyThreadRecord,
  dailyThreadRecordSchema,
  freshRecord,
  localDate,
  parentEvent,
  parentId,
  sameFigures,
  shownFiguresSchema,
  type ThreadNotice,
  withdrawFrom,
} from './daily-thread-record.js';

const dayMs = 24 * 3_600_000;
/** Records outlive their day by a week: a late correction or retry still finds the thread. */
const keepMs = 8 * dayMs;
/** Default minimum time between two edits of one parent. */
export const defaultParentEditIntervalMs = 30_000;

export interface DailyThreadOptions {
  /** Posts the parent and the replies, exactly once each, by its ledger. */
  readonly router: NoticeRouter;
  /** The router's ledger: the parent's message id is read from it. */
  readonly ledger: DeliveryLedger;
  readonly posters: ReadonlyMap<ChannelRef['platform'], ChannelPoster>;
  readonly core: Pick<CommandCore, 'renderNotice' | 'localeFor' | 'timeZoneFor'>;
  readonly store: KeyValueStore;
  readonly settings: DailyThreadSettings;
  readonly clock?: Clock;
  /** The IANA zone of the projects' day (the digest's). Default UTC. */
  readonly timeZone?: string;
  /** The project's funding goal for the parent's progress bar (from the engine's cache). */
  readonly goalOf?: (project: string) => Promise<number | undefined>;
  /** Minimum time between two edits of one parent (rate limits). Default 30 s. */
  readonly editIntervalMs?: number;
  readonly logger?: CoreLogger;
}

/** The daily thread of every channel that turned it on (see {@link createDailyThreads}). */
export interface DailyThreads {
  /** The channels among these that read supporter notices in a daily thread. */
  threaded(channels: readonly ChannelRef[]): Promise<ReadonlySet<string>>;
  /**
   * Posts the notice as a reply in the thread of day `at` in each channel, first
   * posting that day's parent (and opening its Discord thread) when it is the day's
   * first. Throws a {@link NoticeDeliveryError} naming the channels to retry.
   */
  deliver(notice: ThreadNotice, channels: readonly ChannelRef[], at: number): Promise<void>;
  /** Edits the parents whose figures changed since they were shown: at most one edit each. */
  flush(): Promise<void>;
  /**
   * A support announced in a thread dropped out: the day's count goes down by one
   * (the next flush edits the parent). Looks at today's and yesterday's thread of
   * the channel; `announcedIn` names the batch that carried it, if any.
   */
  withdraw(event: SupportDroppedEvent, channel: ChannelRef, announcedIn: readonly string[]): Promise<void>;
}

/**
 * One parent message a day per project and channel, edited in place with the running
 * total, count and progress bar; every supporter notice or batch of the day is a reply
 * in its thread (Slack `thread_ts`, a Discord thread started on the parent).
 *
 * Exactly once across restarts: the parent is an ordinary delivery of the notice router
 * (id `thread-parent:{project}:{date}:{channel}`), so its ledger posts it once and keeps
 * its message id; the thread's id is stored in the day's record; a reply is a delivery
 * under the notice's own id; a notice is counted once (its id is remembered in the
 * record). Edits are idempotent (the same figures twice are harmless) and go out from
 * `flush`, each parent at most once per `editIntervalMs`.
 *
 * Cost: no API requests. Chat requests: per channel and day one parent post (plus one
 * Start Thread on Discord), one reply per notice, and at most one edit per parent per
 * `editIntervalMs` while figures change. Store: per channel and day one record (~2 KB,
 * rewritten per notice) and one ~100-byte "shown" record; one read of the setting per
 * supporter notice and channel; per flush one read of the open list and two per parent
 * of the day (none when no channel uses the thread).
 */
export function createDailyThreads(options: DailyThreadOptions): DailyThreads {
  const { router, ledger, posters, core, store, settings, logger } = options;
  const clock = options.clock ?? systemClock;
  const timeZone = options.timeZone ?? 'UTC';
  const editIntervalMs = options.editIntervalMs ?? defaultParentEditIntervalMs;
  const openKey = 'pacing/thread-open';
  const recordKey = (project: string, date: string, channel: ChannelRef) =>
    `pacing/thread/${encodeURIComponent(project)}/${date}/${channelKey(channel)}`;
  const shownKey = (key: string) => `${key}/shown`;
  const keys = z.array(z.string());
  // One change of a record at a time in this process (a flushed batch and a live notice can meet).
  const locks = new Map<string, Promise<unknown>>();

  function locked<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = locks.get(key) ?? Promise.resolve();
    const run = before.then(work, work);
    const tail = run.catch(() => {});
    locks.set(key, tail);
    void tail.then(() => {
      if (locks.get(key) === tail) locks.delete(key);
    });
    return run;
  }

  async function goal(project: string): Promise<number | null> {
    try {
      return (await options.goalOf?.(project)) ?? null;
    } catch {
      return null; // no bar this time: the figures still go out
    }
  }

  async function markOpen(key: string) {
    const open = (await store.get(openKey, keys)) ?? [];
    if (!open.includes(key)) await store.set(openKey, [...open, key], keepMs);
  }

  /** The parent posted (once) and its thread opened; undefined when the channel cannot hold one. */
  async function ensureThread(
    key: string,
    record: DailyThreadRecord,
    withNotice: DailyThreadRecord,
  ): Promise<DailyThreadRecord | undefined> {
    let current = record;
    if (!current.parentMessageId) {
      // The parent shows the day so far, this first notice included: no edit right after it.
      const now = clock.now();
      await router.deliver(parentEvent(withNotice, await goal(record.project), now), [record.channel]);
      const posted = await ledger.get({ id: parentId(record), channel: record.channel });
      if (posted?.state !== 'posted' || !posted.messageId) return undefined;
      current = { ...current, parentMessageId: posted.messageId };
      await store.set(key, current, keepMs);
      const { count, latest, supporterCount, fundingTotal } = withNotice;
      await store.set(shownKey(key), { count, latest, supporterCount, fundingTotal, at: now }, keepMs);
      await markOpen(key);
    }
    if (!current.thread) {
      const parent = current.parentMessageId as string;
      const poster = posters.get(record.channel.platform);
      const locale = await core.localeFor(record.channel);
      let thread: ThreadTarget = { parentMessageId: parent };
      if (poster?.startThread) {
        try {
          thread = await poster.startThread(
            record.channel,
            parent,
            dailyThreadTexts(locale).threadName(record.project, record.date),
          );
        } catch (error) {
          // A missing right to open threads must not hold the project's notices back: they go to the channel.
          if (!(error instanceof ChannelUnavailableError)) throw error;
          logger?.warn(
            { channel: channelKey(record.channel), reason: error.reason },
            'cannot open the daily thread here (on Discord grant Create Public Threads and Send Messages in Threads): the notice goes to the channel',
          );
          return undefined;
        }
      }
      current = { ...current, thread };
      await store.set(key, current, keepMs);
    }
    return current;
  }

  async function deliverIn(notice: ThreadNotice, channel: ChannelRef, date: string): Promise<void> {
    const key = recordKey(notice.project, date, channel);
    await locked(key, async () => {
      const record =
        (await store.get(key, dailyThreadRecordSchema)) ?? freshRecord(notice.project, date, channel);
      const counted = countIn(record, notice);
      const ready = await ensureThread(key, record, counted);
      // No parent to hang it on (a poster without message ids, a channel gone): posted as usual.
      if (!ready?.thread) return router.deliver(notice, [channel]);
      await router.deliver(notice, [channel], new Map([[channelKey(channel), ready.thread]]));
      if (counted !== record) await store.set(key, { ...ready, ...figuresOf(counted) }, keepMs);
    });
  }

  async function flushParent(key: string): Promise<'done' | 'keep'> {
    const record = await store.get(key, dailyThreadRecordSchema);
    if (!record?.parentMessageId) return 'done';
    const today = localDate(clock.now(), timeZone);
    const shown = await store.get(shownKey(key), shownFiguresSchema);
    if (sameFigures(record, shown)) return record.date < today ? 'done' : 'keep';
    const now = clock.now();
    if (shown && now - shown.at < editIntervalMs) return 'keep';
    const poster = posters.get(record.channel.platform);
    if (!poster?.edit) return 'done';
    const locale = await core.localeFor(record.channel);
    const zone = await core.timeZoneFor(record.channel);
    const message = core.renderNotice(parentEvent(record, await goal(record.project), now), locale, zone);
    await poster.edit(record.channel, record.parentMessageId, message);
    const { count, latest, supporterCount, fundingTotal } = record;
    await store.set(shownKey(key), { count, latest, supporterCount, fundingTotal, at: now }, keepMs);
    return 'keep';
  }

  return {
    async threaded(channels) {
      const on = new Set<string>();
      for (const channel of channels) if (await settings.isOn(channel)) on.add(channelKey(channel));
      return on;
    },

    async deliver(notice, channels, at) {
      const date = localDate(at, timeZone);
      const failed: string[] = [];
      let firstFailure: unknown;
      for (const channel of channels) {
        try {
          await deliverIn(notice, channel, date);
        } catch (error) {
          const inner = error instanceof NoticeDeliveryError ? error.failedChannels : [channelKey(channel)];
          failed.push(...inner);
          firstFailure ??= error;
        }
      }
      if (failed.length > 0) throw new NoticeDeliveryError(notice.id, failed, { cause: firstFailure });
    },

    async withdraw(event, channel, announcedIn) {
      const now = clock.now();
      const days = new Set([localDate(now, timeZone), localDate(now - dayMs, timeZone)]);
      for (const date of days) {
        const key = recordKey(event.project, date, channel);
        await locked(key, async () => {
          const record = await store.get(key, dailyThreadRecordSchema);
          if (!record) return;
          const next = withdrawFrom(record, event.originalEventId, announcedIn);
          if (next !== record) await store.set(key, next, keepMs);
        });
      }
    },

    async flush() {
      const open = (await store.get(openKey, keys)) ?? [];
      const done: string[] = [];
      for (const key of open) {
        try {
          if ((await locked(key, () => flushParent(key))) === 'done') done.push(key);
        } catch (error) {
          logger?.warn(
            { thread: key, ...errorSummary(error) },
            'daily thread parent not edited yet: retried at the next flush',
          );
        }
      }
      if (done.length > 0) {
        const latest = (await store.get(openKey, keys)) ?? [];
        await store.set(
          openKey,
          latest.filter((k) => !done.includes(k)),
          keepMs,
        );
      }
    },
  };
}

function figuresOf(record: DailyThreadRecord) {
  const { count, latest, supporterCount, fundingTotal, currency, counted } = record;
  return { count, latest, supporterCount, fundingTotal, currency, counted };
}
