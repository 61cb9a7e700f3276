/**
 * Bench section: the launch day as ONE subscribed channel reads it, at the default pacing.
 *
 * Rides along the campaign day (bench/campaign-day.ts: the same simulator day, engine,
 * restart in the rush and faults): every event the engine delivers goes through the
 * REAL delivery pipeline (src/delivery) into one channel subscribed
 * to every kind, with no pacing chosen (supporters `auto`). The poster is a recording
 * implementation of the core's poster port (it names its messages and keeps edits, as a
 * platform does). At the campaign's restart the pipeline is built anew on the same store,
 * like a new process. Batches go out when their window ends on the day's clock. Figures:
 * - messagesPerChannel: supporter-kind messages posted into the channel over the day;
 * - supporterNamesDelivered: supporter names those messages carry as they stand at the
 *   end (a batch's "and N more" counted; names struck through or withdrawn by a
 *   correction not counted): must equal the day's ground-truth supporters;
 * - wrongFacts: supporter messages whose supporter count is not the project's
 *   supporter_count at the time it states (a live notice: when it is posted; a batch:
 *   "as of HH:MM", when its newest supporter was read);
 * - corrections: drops corrected in the channel (an edit of the posted message, or the
 *   name taken out of a batch still held); `drops` is what the simulator dropped before
 *   payout among supports the engine had announced;
 * - pacingDuplicates / pacingMisses: supporter entry keys standing in the channel more
 *   than once / never, against the simulator's supporters of the day;
 * - supporterNoticeLatencyMs {p50, p95, max}: per supporter name, from the engine
 *   delivering it to the message that first names it (live or batch): what pacing costs.
 */

import { fundingKey } from '../src/api/stable-keys.js';
import {
  type ChannelRef,
  createChannelAccessStates,
  createCommandCore,
  createDailyThreadSettings,
  createLowStockSettings,
  createPacingSettings,
  createSettingsStore,
  createSubscriptionStore,
  type NeutralMessage,
} from '../src/core/index.js';
import {
  type ChannelPoster,
  createDelivery,
  type Delivery,
  type PostReceipt,
} from '../src/delivery/index.js';
import type { BatchRecord } from '../src/delivery/pacing/batch-record.js';
import { type FundbotEvent, noticeKindOf, noticeKinds } from '../src/domain/events.js';
import { silentLogger } from '../src/domain/logger.js';
import type { Engine } from '../src/engine/index.js';
import { withChangeStamp } from '../src/lib/change-stamp.js';
import { seededRandom } from '../src/lib/random.js';
import { type KeyValueStore, memoryStore, namespaced } from '../src/lib/store.js';
import type { BenchSection, CampaignContext } from './section.js';
import { summarize } from './stats.js';

const channel: ChannelRef = { platform: 'slack', workspaceId: 'T0LAUNCH', channelId: 'C0TEAM' };

/** Posts are kept as a platform keeps them: an id each, edits replace the content. */
class RecordingPoster implements ChannelPoster {
  readonly platform = channel.platform;
  readonly posts: { id: string; key: string; at: number; message: NeutralMessage }[] = [];
  readonly edits: { id: string; message: NeutralMessage }[] = [];
  constructor(private readonly now: () => number) {}

  async post(_channel: ChannelRef, message: NeutralMessage, idempotencyKey: string): Promise<PostReceipt> {
    const id = `m${this.posts.length + 1}`;
    this.posts.push({ id, key: idempotencyKey, at: this.now(), message });
    return { messageId: id };
  }

  async edit(_channel: ChannelRef, messageId: string, message: NeutralMessage): Promise<void> {
    this.edits.push({ id: messageId, message });
  }
}

/** A supporter-kind message as it stands: the entry keys it names and how many names it carries. */
interface PostedSupporters {
  readonly eventId: string;
  keys: string[];
  names: number;
  /** The names its data lists (a batch shows a few and says "and N more"). */
  readonly namesInData: number;
}

interface DayState {
  readonly store: KeyValueStore;
  readonly poster: RecordingPoster;
  engine: Engine;
  pipeline: Delivery;
  restarts: number;
  /** Every supporter-ish event delivered, by id (a batch's entries name them). */
  readonly events: Map<string, FundbotEvent>;
  /** Epoch ms of a cycle that read the count -> the simulator's supporter_count then. */
  readonly simCountAt: Map<number, number>;
  readonly posted: PostedSupporters[];
  readonly postedById: Map<string, PostedSupporters>;
  /** Keys the engine announced, with when (for the drops among them). */
  readonly announced: Map<string, number>;
  /** Per entry key: ms from the engine's delivery to the first message naming it. */
  readonly noticeLatency: Map<string, number>;
  wrongFacts: number;
  factsChecked: number;
  factsUnchecked: number;
  corrections: { edited: number; unheld: number };
  batches: number;
  livePosts: number;
}

function keysOf(event: FundbotEvent): string[] {
  if (event.type === 'supporter') return [event.entryKey ?? event.id];
  if (event.type === 'supporter-burst') return [...(event.entryKeys ?? [])];
  return [];
}

function supportKey(k: { supportTimestamp: number; userId: number }): string {
  return fundingKey({ support_timestamp: k.supportTimestamp, user: { id: k.userId, display_name: '' } });
}

function simCount(ctx: CampaignContext): number {
  return ctx.sim.project(ctx.linkCaption).supporterCount;
}

/** The delivery pipeline of one process on the shared store, as src/app/wire-fundbot.ts builds it. */
function startPipeline(ctx: CampaignContext, s: DayState): Delivery {
  const settingsStore = withChangeStamp(
    s.store,
    'settings/stamp',
    () => `${ctx.clock.now()}-${Math.random()}`,
  );
  const subscriptions = createSubscriptionStore(settingsStore, { clock: ctx.clock });
  const pacing = createPacingSettings(settingsStore);
  const dailyThreads = createDailyThreadSettings(settingsStore);
  const core = createCommandCore({
    readModel: ctx.engine.readModel,
    subscriptions,
    settings: createSettingsStore(settingsStore),
    clock: ctx.clock,
    version: 'bench',
  });
  const pipeline = createDelivery({
    store: namespaced(s.store, 'deliveries/'),
    settingsStore,
    settingsStampKey: 'settings/stamp',
    core,
    subscriptions,
    pacing,
    dailyThreads,
    lowStock: createLowStockSettings(settingsStore),
    access: createChannelAccessStates(settingsStore),
    clock: ctx.clock,
    random: seededRandom(s.restarts + 1),
    logger: silentLogger,
    observer: {
      posted: ({ id }) => {
        const event = s.events.get(id);
        if (event) onPosted(ctx, s, event);
      },
    },
    onBatchPosted: (batch) => onBatchPosted(ctx, s, batch),
    onCorrected: (event, _channel, how) => {
      if (event.type !== 'support-dropped') return;
      s.corrections[how] += 1;
      const message = how === 'edited' ? s.postedById.get(event.originalEventId) : undefined;
      // A live notice struck through names nobody any more; a posted batch loses one name.
      if (message) {
        message.keys = message.keys.filter((k) => k !== event.entryKey);
        message.names -= 1;
      } else if (how === 'edited') {
        for (const m of s.posted) {
          if (!m.keys.includes(event.entryKey)) continue;
          m.keys = m.keys.filter((k) => k !== event.entryKey);
          m.names -= 1;
        }
      }
    },
  });
  pipeline.registerPoster(s.poster);
  return pipeline;
}

function onPosted(ctx: CampaignContext, s: DayState, event: FundbotEvent): void {
  if (noticeKindOf(event) !== 'supporters' || event.type === 'notice-batch') return;
  if (event.type !== 'supporter' && event.type !== 'supporter-burst') return;
  s.livePosts += 1;
  const keys = keysOf(event);
  const message: PostedSupporters = {
    eventId: event.id,
    keys,
    names: event.type === 'supporter' ? 1 : event.count,
    namesInData: event.type === 'supporter' ? 1 : event.displayNames.length,
  };
  s.posted.push(message);
  s.postedById.set(event.id, message);
  noteLatency(ctx, s, keys);
  if (event.supporterCount === null) return;
  // Posted in the cycle that read it (the engine's deliver runs in its step): the count now.
  if (event.detectedAt !== ctx.clock.now()) {
    s.factsUnchecked += 1;
    return;
  }
  s.factsChecked += 1;
  if (event.supporterCount !== simCount(ctx)) s.wrongFacts += 1;
}

function noteLatency(ctx: CampaignContext, s: DayState, keys: readonly string[]): void {
  for (const k of keys) {
    const at = s.announced.get(k);
    if (at !== undefined && !s.noticeLatency.has(k)) s.noticeLatency.set(k, ctx.clock.now() - at);
  }
}

function onBatchPosted(ctx: CampaignContext, s: DayState, batch: BatchRecord): void {
  if (batch.kind !== 'supporters') return;
  s.batches += 1;
  // A burst's entry lists its keys minus any dropped while it was held; a single supporter's is its event's.
  const keys = batch.entries.flatMap((e) => {
    const event = s.events.get(e.eventId);
    return e.keys ? [...e.keys] : event ? keysOf(event) : [];
  });
  const message: PostedSupporters = {
    eventId: batch.id,
    keys,
    names: batch.entries.reduce((sum, e) => sum + e.count, 0),
    namesInData: batch.entries.reduce((sum, e) => sum + e.names.length, 0),
  };
  s.posted.push(message);
  s.postedById.set(batch.id, message);
  noteLatency(ctx, s, keys);
  if (batch.supporterCount === null) return;
  const truth = batch.countedAt === undefined ? undefined : s.simCountAt.get(batch.countedAt);
  if (truth === undefined) {
    s.factsUnchecked += 1;
    return;
  }
  s.factsChecked += 1;
  if (batch.supporterCount !== truth) s.wrongFacts += 1;
}

function createPacingDaySection(): BenchSection {
  let state: DayState | undefined;
  const current = (ctx: CampaignContext): DayState => {
    if (!state) throw new Error('pacing-day: setup did not run');
    // The campaign restarted its engine (a deploy in the rush): a new process builds its routers anew.
    if (state.engine !== ctx.engine) {
      void state.pipeline.stop(0);
      state.engine = ctx.engine;
      state.restarts += 1;
      state.pipeline = startPipeline(ctx, state);
      void state.pipeline.start();
    }
    return state;
  };
  return {
    name: 'pacing-day',
    campaign: {
      async setup(ctx) {
        const store = memoryStore();
        await createSubscriptionStore(store, { clock: ctx.clock }).subscribe(
          channel,
          ctx.linkCaption,
          noticeKinds,
          'U0ADMIN',
        );
        const base = {
          store,
          poster: new RecordingPoster(() => ctx.clock.now()),
          engine: ctx.engine,
          restarts: 0,
          events: new Map(),
          simCountAt: new Map(),
          posted: [],
          postedById: new Map(),
          announced: new Map(),
          noticeLatency: new Map(),
          wrongFacts: 0,
          factsChecked: 0,
          factsUnchecked: 0,
          corrections: { edited: 0, unheld: 0 },
          batches: 0,
          livePosts: 0,
        };
        // The pipeline's callbacks keep this very object: it is the state, its pipeline set after.
        const s = base as Omit<DayState, 'pipeline'> as DayState;
        s.pipeline = startPipeline(ctx, s);
        await s.pipeline.start();
        state = s;
      },
      async delivered(event, ctx) {
        const s = current(ctx);
        if (event.type === 'supporter' || event.type === 'supporter-burst') {
          s.events.set(event.id, event);
          for (const k of keysOf(event)) if (!s.announced.has(k)) s.announced.set(k, ctx.clock.now());
          if (event.supporterCount !== null && event.detectedAt === ctx.clock.now()) {
            s.simCountAt.set(event.detectedAt, simCount(ctx));
          }
        }
        // Offered as the outbox offers it, inside the engine's step: posted before the clock moves on.
        await s.pipeline.sink.offer(event.project, [event]);
        await s.pipeline.idle();
      },
      async tick(ctx) {
        // Batches whose window ended went out when the clock was set: wait for their posts.
        await current(ctx).pipeline.idle();
      },
      figures(ctx) {
        const s = current(ctx);
        const project = ctx.sim.project(ctx.linkCaption);
        // The day's truth as the bot could last see it: a support that failed after the last
        // fundings read (a page shift at the day's final read) can be corrected only at the next.
        const lastReadAt = Math.max(
          ...ctx.sim.requests.filter((r) => r.path.includes('/fundings')).map((r) => r.at),
        );
        const failed = project.history.filter((h) => h.type === 'support-failed' && h.at >= ctx.start);
        const failedUnseen = failed.filter((h) => h.at >= lastReadAt);
        const truth = new Set(
          [
            ...project.activeSupportKeys(),
            ...failedUnseen.flatMap((h) => (h.type === 'support-failed' ? [h.key] : [])),
          ]
            .map(supportKey)
            .filter((k) => !ctx.inBaseline.has(k)),
        );
        const standing = new Map<string, number>();
        for (const m of s.posted) for (const k of m.keys) standing.set(k, (standing.get(k) ?? 0) + 1);
        let duplicates = 0;
        for (const n of standing.values()) duplicates += Math.max(0, n - 1);
        const missedKeys = [...truth].filter((k) => !standing.has(k));
        const misses = missedKeys.length;
        const missed = missedKeys.slice(0, 5).map((k) => ({
          key: k,
          announcedAt: s.announced.get(k),
          history: project.history
            .filter(
              (h) => 'key' in h && supportKey(h.key as { supportTimestamp: number; userId: number }) === k,
            )
            .map((h) => ({ type: h.type, at: h.at })),
          dropEvents: [...s.events.values()].filter((e) => e.type === 'support-dropped' && e.entryKey === k)
            .length,
        }));
        const spuriousKeys = [...standing.keys()].filter((k) => !truth.has(k));
        const spurious = spuriousKeys.length;
        // For each name still standing that should not: when it was announced and when it failed.
        const uncorrected = spuriousKeys.slice(0, 5).map((k) => {
          const failedAt = project.history.find(
            (h) => h.type === 'support-failed' && supportKey(h.key) === k,
          )?.at;
          return { key: k, announcedAt: s.announced.get(k), failedAt };
        });
        const drops = failed.filter((h) => {
          if (h.type !== 'support-failed' || h.at >= lastReadAt) return false;
          const at = s.announced.get(supportKey(h.key));
          return at !== undefined && at <= h.at;
        }).length;
        const namesInBatches = s.posted.filter((m) => m.eventId.startsWith('batch:'));
        return {
          messagesPerChannel: s.posted.length,
          supporterNamesDelivered: s.posted.reduce((sum, m) => sum + m.names, 0),
          wrongFacts: s.wrongFacts,
          corrections: s.corrections.edited + s.corrections.unheld,
          drops,
          pacingDuplicates: duplicates,
          pacingMisses: misses,
          supporterNoticeLatencyMs: (({ p50, p95, max }) => ({ p50, p95, max }))(
            summarize([...s.noticeLatency.values()]),
          ),
          details: {
            pacingDay: {
              groundTruthSupporters: truth.size,
              liveMessages: s.livePosts,
              batchMessages: s.batches,
              batchNamesInData: namesInBatches.reduce((sum, m) => sum + m.namesInData, 0),
              batchNamesCounted: namesInBatches.reduce((sum, m) => sum + m.names, 0),
              correctionsEdited: s.corrections.edited,
              correctionsUnheld: s.corrections.unheld,
              dropsInDay: failed.length,
              dropsAfterLastRead: failedUnseen.length,
              spuriousKeys: spurious,
              uncorrected,
              missed,
              factsChecked: s.factsChecked,
              factsUnchecked: s.factsUnchecked,
              restarts: s.restarts,
              platformEdits: s.poster.edits.length,
              allMessages: s.poster.posts.length,
            },
          },
        };
      },
    },
  };
}

/** The launch day in one channel at the default pacing (see the file's head). */
export const pacingDaySection: BenchSection = createPacingDaySection();
