/**
 * `feedHealth` (issue 32): the real engine and delivery pipeline on a virtual clock against the simulator, one
 * project, two channels (every kind; the wall only). The key is revoked and restored again and again: long stops
 * (5 minutes, over the 3-minute hold), flaps (90 s, under it), and a restart of engine and pipeline on the same
 * store in the middle of a said stop. Counted from the poster: the feed-health messages each channel got.
 * Expected: one per said stop and one per its resume in each channel, nothing for a flap, 0 duplicates (two
 * messages with the same idempotency key, or more messages than said stops and resumes).
 */
import { pathToFileURL } from 'node:url';
import { type ApiClient, createApiClient, parseProjectKey } from '../src/api/index.js';
import {
  type ChannelRef,
  createChannelAccessStates,
  createCommandCore,
  createDailyThreadSettings,
  createLowStockSettings,
  createPacingSettings,
  createSettingsStore,
  createSubscriptionStore,
} from '../src/core/index.js';
import { createDelivery, type Delivery } from '../src/delivery/index.js';
import { noticeKinds } from '../src/domain/events.js';
import { silentLogger } from '../src/domain/logger.js';
import { createEngine, type Engine } from '../src/engine/index.js';
import { withChangeStamp } from '../src/lib/change-stamp.js';
import { seededRandom } from '../src/lib/random.js';
import { type KeyValueStore, memoryStore, namespaced } from '../src/lib/store.js';
import { projectScopes, startSimulator } from '../src/simulator/index.js';
import { seed } from '../test/engine/harness.js';
import { ManualClock } from '../test/support/manual-clock.js';
import { RecordingPoster } from '../test/support/recording-poster.js';
import type { BenchSection, Figures } from './section.js';

const lc = 'solar-kiosk';
const minute = 60_000;
const everything: ChannelRef = { platform: 'slack', workspaceId: 'T0HEALTH', channelId: 'C0ALL' };
const wallOnly: ChannelRef = { platform: 'slack', workspaceId: 'T0HEALTH', channelId: 'C0WALL' };
/** The outages, in order: minutes revoked. 5 is said (and its resume); 1.5 is a flap. `restart` mid-stop. */
const outages: readonly { minutes: number; restart?: true }[] = [
  { minutes: 5 },
  { minutes: 1.5 },
  { minutes: 8, restart: true },
  { minutes: 1.5 },
  { minutes: 1.5 },
  { minutes: 5 },
  { minutes: 20 },
  { minutes: 1.5 },
];

interface Process {
  readonly engine: Engine;
  readonly pipeline: Delivery;
}

function startProcess(
  clock: ManualClock,
  api: ApiClient,
  store: KeyValueStore,
  key: ReturnType<typeof parseProjectKey>,
  poster: RecordingPoster,
  n: number,
): Process {
  const settingsStore = withChangeStamp(store, 'settings/stamp', () => `${clock.now()}-${n}`);
  const subscriptions = createSubscriptionStore(settingsStore, { clock });
  let pipeline: Delivery | undefined;
  // The engine hands its outbox to the pipeline built just below (it renders with the engine's read model).
  const engine = createEngine({
    api,
    store,
    clock,
    random: seededRandom(10 + n),
    projects: [{ linkCaption: lc, key }],
    sink: { offer: (project, events) => (pipeline as Delivery).sink.offer(project, events) },
  });
  const core = createCommandCore({
    readModel: engine.readModel,
    subscriptions,
    settings: createSettingsStore(settingsStore),
    clock,
    version: 'bench',
  });
  pipeline = createDelivery({
    store: namespaced(store, 'deliveries/'),
    settingsStore,
    settingsStampKey: 'settings/stamp',
    core,
    subscriptions,
    pacing: createPacingSettings(settingsStore),
    dailyThreads: createDailyThreadSettings(settingsStore),
    lowStock: createLowStockSettings(settingsStore),
    access: createChannelAccessStates(settingsStore),
    clock,
    random: seededRandom(n),
    logger: silentLogger,
  });
  pipeline.registerPoster(poster);
  return { engine, pipeline };
}

async function runFeedHealth(): Promise<Figures> {
  const clock = new ManualClock(Date.UTC(2026, 10, 29, 8, 0, 0));
  const sim = await startSimulator({
    clock,
    seed: 11,
    listOrder: 'newest-first',
    projects: [seed({ linkCaption: lc })],
  });
  const rawKey = sim.issueProjectKey(lc, { scopes: projectScopes, plan: 'pro' });
  const key = parseProjectKey(rawKey);
  const api = createApiClient({
    baseUrl: sim.url,
    clock,
    random: seededRandom(3),
    maxRetries: 0,
    maxRateLimitRetries: 0,
  });
  const store = memoryStore();
  const subscriptions = createSubscriptionStore(store, { clock });
  await subscriptions.subscribe(everything, lc, noticeKinds, 'U0ADMIN');
  await subscriptions.subscribe(wallOnly, lc, ['wall'], 'U0ADMIN');
  const poster = new RecordingPoster('slack');
  let restarts = 0;
  let bot = startProcess(clock, api, store, key, poster, restarts);
  await bot.pipeline.start();
  const runFor = async (ms: number) => {
    const until = clock.now() + ms;
    for (;;) {
      const next = Math.min(bot.engine.nextDueAt(), bot.pipeline.nextWakeAt() ?? Number.POSITIVE_INFINITY);
      if (next > until) break;
      clock.set(Math.max(next, clock.now()));
      await bot.engine.runDue();
      await bot.pipeline.idle();
    }
    clock.set(until);
    await bot.pipeline.idle();
  };
  try {
    await runFor(5 * minute);
    let said = 0;
    let flaps = 0;
    for (const outage of outages) {
      sim.revokeKey(rawKey);
      if (outage.restart) {
        await runFor(4 * minute); // past the hold: said before the restart
        await bot.engine.stop();
        await bot.pipeline.stop();
        restarts += 1;
        bot = startProcess(clock, api, store, key, poster, restarts);
        await bot.pipeline.start();
        await runFor((outage.minutes - 4) * minute);
      } else {
        await runFor(outage.minutes * minute);
      }
      sim.restoreKey(rawKey);
      await runFor(10 * minute);
      if (outage.minutes * minute >= 3 * minute) said += 1;
      else flaps += 1;
    }
    const health = poster.posts.filter((p) => /have stopped|are back/.test(p.message.title ?? ''));
    const keys = health.map((p) => `${p.channel.channelId} ${p.idempotencyKey}`);
    const channels = 2;
    const expected = said * 2 * channels;
    const repeatedKeys = keys.length - new Set(keys).size;
    return {
      feedHealth: {
        stops: outages.length,
        flaps,
        said,
        restarts,
        messages: health.length,
        expectedMessages: expected,
        duplicates: Math.max(repeatedKeys, health.length - expected),
        missing: Math.max(0, expected - health.length),
      },
    };
  } finally {
    await bot.engine.stop();
    await bot.pipeline.stop();
    await api.close();
    await sim.close();
  }
}

export const feedHealthSection: BenchSection = { name: 'feed-health', run: runFeedHealth };

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await runFeedHealth())}\n`);
}
