import { dailyThreadTexts, type Locale } from '../../core/index.js';
import { type ChannelRef, channelKey } from '../../domain/channels.js';
import { errorSummary } from '../../domain/error-summary.js';
import type { FundbotEvent, SupportDroppedEvent } from '../../domain/events.js';
import type { WarningLogger } from '../../domain/logger.js';
import type { NeutralMessage } from '../../domain/neutral-message.js';
import type { Clock } from '../../lib/clock.js';
import type { KeyValueStore } from '../../lib/store.js';
import { ChannelUnavailableError } from '../channel-unavailable-error.js';
import type { EditTask } from '../lane-item.js';
import type { ChannelPoster, ProjectFigures, ThreadTarget } from '../ports.js';
import {
  countIn,
  type DailyThreadRecord,
  freshRecord,
  localDate,
  parentEvent,
  parentId,
  sameFigures,
  type ThreadNotice,
  withdrawFrom,
} from './daily-thread-record.js';
import { createDailyThreadStore } from './daily-thread-store.js';

const dayMs = 24 * 3_600_000;
/** Default minimum time between two edits of one parent. */
export const defaultParentEditIntervalMs = 30_000;

export interface DailyThreadOptions {
  readonly posterFor: (platform: ChannelRef['platform']) => ChannelPoster | undefined;
  /** A notice as the channel reads it (its language and clock). */
  readonly render: (channel: ChannelRef, event: FundbotEvent) => Promise<NeutralMessage>;
  readonly localeOf: (channel: ChannelRef) => Promise<Locale>;
  readonly store: KeyValueStore;
  readonly clock: Clock;
  /**
   * Posts the day's parent once (through the ledger: claim, attempt, post, confirm;
   * a parent in doubt is looked for, never posted blind) and returns its message id;
   * throws while it cannot be posted yet (the reply waits and is retried).
   */
  readonly postOnce: (
    id: string,
    channel: ChannelRef,
    message: NeutralMessage,
  ) => Promise<string | undefined>;
  /** Queues an edit in the channel's lane (after the posts before it). */
  readonly enqueueEdit: (channel: ChannelRef, task: EditTask) => void;
  /** The IANA zone of the projects' day (the digest's). Default UTC. */
  readonly timeZone?: string;
  /** The project's funding goal for the parent's progress bar (from the engine's cache). */
  readonly goalOf?: (project: string) => Promise<number | undefined>;
  /** The project's figures as last read (no request), for a day whose notices carried none. */
  readonly figuresOf?: (project: string) => Promise<ProjectFigures | undefined>;
  /** Minimum time between two edits of one parent (rate limits). Default 30 s. */
  readonly editIntervalMs?: number;
  readonly logger?: WarningLogger;
}

/**
 * One parent message a day per project and channel (`/thread on`), edited in place with
 * the running total, count and progress bar; every supporter notice or batch of the day
 * is a reply in its thread (Slack `thread_ts`, a Discord thread started on the parent).
 *
 * Exactly once across restarts: the parent is a ledger delivery (id
 * `thread-parent:{project}:{date}:{channel}`), posted once with its message id kept; the
 * thread's id is stored in the day's record; a reply is a delivery under the notice's
 * own id; a notice is counted once (its id is remembered in the record). Edits are
 * idempotent and go through the channel's lane, each parent at most once per
 * `editIntervalMs`.
 *
 * Cost: per channel and day one parent post (plus one Start Thread on Discord), one reply
 * per notice, and at most one edit per parent per `editIntervalMs` while figures change.
 * Store: per channel and day one record (~2 KB, rewritten per notice) and one ~100-byte
 * "shown" record.
 */
export function createDailyThreads(options: DailyThreadOptions) {
  const { store, clock, logger } = options;
  const timeZone = options.timeZone ?? 'UTC';
  const editIntervalMs = options.editIntervalMs ?? defaultParentEditIntervalMs;
  const records = createDailyThreadStore(store);
  const { recordKey } = records;
  // One change of a record at a time in this process (a batch and a live notice can meet).
  const locks = new Map<string, Promise<unknown>>();
  const editing = new Set<string>();

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

  /** The record's figures, or the project's as last read when no notice of the day carried any. */
  async function withFigures(record: DailyThreadRecord): Promise<DailyThreadRecord> {
    if (record.supporterCount !== null || !options.figuresOf) return record;
    const figures = await options.figuresOf(record.project).catch(() => undefined);
    return figures
      ? { ...record, supporterCount: figures.supporterCount, fundingTotal: figures.fundingTotal }
      : record;
  }

  async function markOpen(key: string) {
    const open = await records.openKeys();
    if (!open.includes(key)) await records.saveOpenKeys([...open, key]);
  }

  /** The parent posted (once) and its thread opened; undefined when the channel cannot hold one. */
  async function ensureThread(key: string, notice: ThreadNotice, record: DailyThreadRecord) {
    let current = record;
    if (!current.parentMessageId) {
      // The parent shows the day so far, this first notice included: no edit right after it.
      const withNotice = await withFigures(countIn(record, notice));
      const now = clock.now();
      const message = await options.render(
        record.channel,
        parentEvent(withNotice, await goal(record.project), now),
      );
      const messageId = await options.postOnce(parentId(record), record.channel, message);
      if (!messageId) return undefined;
      current = { ...current, parentMessageId: messageId };
      await records.saveRecord(key, current);
      const { count, latest, supporterCount, fundingTotal } = withNotice;
      await records.saveShown(key, { count, latest, supporterCount, fundingTotal, at: now });
      await markOpen(key);
    }
    if (!current.thread) {
      const parent = current.parentMessageId as string;
      const poster = options.posterFor(record.channel.platform);
      let thread: ThreadTarget = { parentMessageId: parent };
      if (poster?.threads === 'start-thread' && poster.startThread) {
        try {
          const locale = await options.localeOf(record.channel);
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
      await records.saveRecord(key, current);
    }
    return current.thread;
  }

  async function flushParent(key: string): Promise<'done' | 'keep'> {
    const stored = await records.record(key);
    if (!stored?.parentMessageId) return 'done';
    const record = await withFigures(stored);
    const today = localDate(clock.now(), timeZone);
    const shown = await records.shown(key);
    if (sameFigures(record, shown)) return record.date < today ? 'done' : 'keep';
    const now = clock.now();
    if (shown && now - shown.at < editIntervalMs) return 'keep';
    const poster = options.posterFor(record.channel.platform);
    if (!poster?.edit || editing.has(key)) return 'keep';
    const messageId = stored.parentMessageId;
    const message = await options.render(
      record.channel,
      parentEvent(record, await goal(record.project), now),
    );
    editing.add(key);
    options.enqueueEdit(record.channel, {
      type: 'edit',
      label: `daily thread ${key}`,
      run: async () => {
        await poster.edit?.(record.channel, messageId, message);
        const { count, latest, supporterCount, fundingTotal } = record;
        await records.saveShown(key, { count, latest, supporterCount, fundingTotal, at: clock.now() });
      },
      settle: () => editing.delete(key),
    });
    return 'keep';
  }

  return {
    /** The day's local date of a notice detected at `at`. */
    dateOf: (at: number) => localDate(at, timeZone),

    /** The thread a supporter notice (or batch) of day `at` goes into, posting the day's parent first. */
    targetFor(notice: ThreadNotice, channel: ChannelRef, at: number): Promise<ThreadTarget | undefined> {
      const key = recordKey(notice.project, localDate(at, timeZone), channel);
      return locked(key, async () => {
        const record =
          (await records.record(key)) ?? freshRecord(notice.project, localDate(at, timeZone), channel);
        return ensureThread(key, notice, record);
      });
    },

    /** A reply was posted: the day's figures count it (once). */
    counted(notice: ThreadNotice, channel: ChannelRef, at: number): Promise<void> {
      const key = recordKey(notice.project, localDate(at, timeZone), channel);
      return locked(key, async () => {
        const record = await records.record(key);
        if (!record) return;
        const next = countIn(record, notice);
        if (next !== record) await records.saveRecord(key, next);
      });
    },

    /** Edits the parents whose figures changed since they were shown: at most one edit each. */
    async flush(): Promise<void> {
      const open = await records.openKeys();
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
        const latest = await records.openKeys();
        await records.saveOpenKeys(latest.filter((k) => !done.includes(k)));
      }
    },

    /**
     * A support announced in a thread dropped out: the day's count goes down by one (the
     * next flush edits the parent). Looks at today's and yesterday's thread of the channel;
     * `announcedIn` names the batch that carried it, if any.
     */
    async withdraw(event: SupportDroppedEvent, channel: ChannelRef, announcedIn: readonly string[]) {
      const now = clock.now();
      const days = new Set([localDate(now, timeZone), localDate(now - dayMs, timeZone)]);
      for (const date of days) {
        const key = recordKey(event.project, date, channel);
        await locked(key, async () => {
          const record = await records.record(key);
          if (!record) return;
          const next = withdrawFrom(record, event.originalEventId, announcedIn);
          if (next !== record) await records.saveRecord(key, next);
        });
      }
    },
  };
}

export type DailyThreads = ReturnType<typeof createDailyThreads>;
