/**
 * Issue 29, build item 2 on Discord: a message Discord took but created and answered late (after the client's
 * REST timeout, and after its nonce window, which Discord does not document and keeps short) stands ONCE in the
 * channel. The pipeline repeats the post with the same nonce as soon as it may (the repeat is safe inside the
 * window), and a copy created late beside it is removed: at once when MESSAGE_CREATE shows it (gateway, with
 * the GuildMessages intent), else by the next look of the watch (REST only: HTTP interactions mode, replicas).
 * The real discord.js clients against the fake Discord; the pipeline and the fake's late landings on a virtual
 * clock set to now (Discord's message ids carry real time).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createDiscordRestPosting } from '../../src/adapters/discord/index.js';
import type { DeliveryObserver } from '../../src/delivery/index.js';
import { memoryStore } from '../../src/lib/store.js';
import { startAdapterPipeline } from '../delivery/adapter-pipeline.js';
import { type PipelineHarness, type PipelineOptions, runFor } from '../delivery/pipeline-harness.js';
import {
  type FakeDiscord,
  lateCreate,
  resetAfterCreate,
  startFakeDiscord,
} from '../fakes/discord/fake-discord.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import {
  campaign,
  fanAt,
  restTimeoutMs,
  settleMs,
  startWitnessedDiscordPipeline,
} from './discord-pipeline.js';

const late = [25_000, 35_000, 60_000, 90_000];

/** The fake Discord on `clock`, its nonce window over before a late message is created: Discord creates a second. */
const lateFake = (clock: ManualClock) =>
  startFakeDiscord({ nonceWindowMs: 0, sleep: (ms) => clock.sleep(ms), now: () => clock.now() });

/** The pipeline posting through discord.js over REST only (no gateway: HTTP interactions mode, replicas). */
function startRestOnly(
  fake: FakeDiscord,
  options: Omit<PipelineOptions, 'posters' | 'access'> & { readonly clock: ManualClock },
  timeoutMs = restTimeoutMs,
) {
  const posting = createDiscordRestPosting({
    token: fake.token,
    apiUrl: fake.apiUrl,
    restTimeoutMs: timeoutMs,
    clock: options.clock,
  });
  const adapter = {
    poster: posting.poster,
    channelAccess: posting.channelAccess,
    stop: () => posting.close(),
  };
  return startAdapterPipeline(fake, adapter, options);
}

let running: { fake: FakeDiscord; bot?: PipelineHarness } | undefined;
afterEach(async () => {
  await running?.bot?.stop();
  await running?.fake.close();
  running = undefined;
});

/**
 * One bot with a live campaign channel on a late fake, posting through the gateway (its MESSAGE_CREATE events
 * witnessed) or REST only; stopped after the test. `removed` names each removed copy and how it was found.
 */
async function startLive(how: 'gateway' | 'rest', timeoutMs = restTimeoutMs) {
  const clock = new ManualClock(Date.now());
  const removed: string[] = [];
  const removedIds: string[] = [];
  const observer: DeliveryObserver = {
    extraCopyRemoved: ({ id, how: by }) => {
      removed.push(`${id}:${by}`);
      removedIds.push(id);
    },
  };
  // The nonce window is over before the late message is created: Discord creates a second one.
  const fake = await lateFake(clock);
  running = { fake };
  const bot =
    how === 'gateway'
      ? await startWitnessedDiscordPipeline(fake, { clock, observer })
      : await startRestOnly(fake, { clock, observer }, timeoutMs);
  running.bot = bot;
  await bot.subscribe(campaign, ['supporters']);
  await bot.pacing.setKind(campaign, 'supporters', { mode: 'live' });
  return { clock, removed, removedIds, fake, bot };
}

describe('Discord: a message created and answered late, past the nonce window, stands once', () => {
  const inChannel = (f: FakeDiscord) => f.channelMessages.get(campaign.channelId) ?? [];

  /**
   * A supporter's message created and answered `lateMs` late: repeated with the same nonce once it may no longer
   * land from this attempt's own answer (one message meanwhile); the clock then runs to its late creation.
   */
  async function postCreatedLate(live: Awaited<ReturnType<typeof startLive>>, lateMs: number) {
    const { clock, fake, bot } = live;
    fake.faultMessages(lateCreate(lateMs), 1);
    const sentAt = clock.now();
    await bot.offer(buildEvent.supporter({ occurredAt: sentAt, detectedAt: sentAt }));
    await bot.advance(settleMs);
    expect(inChannel(fake)).toHaveLength(1);
    await runFor(bot, sentAt + lateMs - clock.now(), 1_000);
  }

  it.each(late)(
    'gateway: created %i ms late, the extra copy is removed as MESSAGE_CREATE shows it',
    async (lateMs) => {
      const live = await startLive('gateway');
      const { removed, fake: f, bot: b } = live;
      await postCreatedLate(live, lateMs);
      await f.waitForRequest((r) => r.method === 'DELETE', 10_000);
      await b.settle();
      expect(inChannel(f)).toHaveLength(1);
      expect(f.deletedMessages).toHaveLength(1);
      expect(removed).toHaveLength(1);
      expect(removed[0]).toMatch(/:sighted$/);
    },
  );

  it.each(late)(
    'REST only (no gateway): created %i ms late, the extra copy is removed by the next look, seconds later',
    async (lateMs) => {
      const live = await startLive('rest');
      const { fake: f, bot: b } = live;
      await postCreatedLate(live, lateMs);
      expect(inChannel(f)).toHaveLength(2);
      // The watch looks every Discord look interval (5 s and a margin): the late copy is gone by then.
      await runFor(b, 7_000, 1_000);
      expect(inChannel(f)).toHaveLength(1);
      expect(f.deletedMessages).toHaveLength(1);
      // The copy the ledger names (the repeat, created first) stays.
      expect(BigInt(String(inChannel(f)[0]?.['id']))).toBeLessThan(
        BigInt(String(f.deletedMessages[0]?.message['id'])),
      );
    },
  );
});

/** The fake's creation time of a Discord message: its snowflake's timestamp. */
const createdAt = (message: Record<string, unknown>) =>
  Number((BigInt(String(message['id'])) >> 22n) + 1_420_070_400_000n);

describe('Discord REST only: time from a late landing to its removal', () => {
  // Landings spread over a whole look period of the watch (the phase a copy lands at against its looks).
  it.each([25_000, 26_000, 27_000, 28_000, 29_000, 30_000])(
    'created %i ms late: the copy stands at most 3.5 s (a look every 3 s), under the 5 s a reader may see two',
    async (lateMs) => {
      const live = await startLive('rest');
      const { clock, fake, bot } = live;
      fake.faultMessages(lateCreate(lateMs), 1);
      const sentAt = clock.now();
      await bot.offer(buildEvent.supporter({ occurredAt: sentAt, detectedAt: sentAt }));
      await runFor(bot, sentAt + lateMs - clock.now(), 1_000);
      // Fine steps from the landing: the removal's time is read to a quarter second.
      await runFor(bot, 10_000, 250);
      const [gone] = fake.deletedMessages;
      expect(gone).toBeDefined();
      const landedAt = createdAt(gone?.message ?? {});
      expect(landedAt).toBeGreaterThanOrEqual(sentAt + lateMs - 1_000);
      // Before, the watch looked every 6 s (Discord's 5 s look budget and the 1 s spacing margin Slack needs):
      // a copy landing just after a look stood 6 s and more.
      expect((gone?.at ?? Number.POSITIVE_INFINITY) - landedAt).toBeLessThanOrEqual(3_500);
    },
  );
});

describe("Discord REST only: a late copy landing while another of the channel's posts hangs", () => {
  it('the watch looks beside the hung post, not after it: the copy stands at most 3.5 s', async () => {
    // The REST timeout is wall time: long here, so the hung post stays in the air while the test moves the
    // virtual clock (the harness's settle would wait for it); the first doubt comes from a reset, at once.
    const { clock, fake, bot } = await startLive('rest', 8_000);
    const inChannel = () => fake.channelMessages.get(campaign.channelId) ?? [];
    fake.faultMessages(resetAfterCreate(50_000), 1);
    const sentAt = clock.now();
    await bot.offer(fanAt(clock, 0));
    // Looked for after the settle time, not found, posted again: the repeat stands and is watched.
    await runFor(bot, sentAt + 46_000 - clock.now(), 1_000);
    expect(inChannel()).toHaveLength(1);
    // The next notice's post hangs (no answer for minutes, as a post that ends in its timeout): the lane's
    // attempt holds for its stall time (10 s), and the late copy lands at +50 s meanwhile.
    fake.faultMessages(lateCreate(10 * 60_000), 1);
    void bot.delivery.sink.offer('solar-kiosk', [fanAt(clock, 1)]);
    await fake.waitForRequest((r) => r.method === 'POST' && JSON.stringify(r.body).includes('Fan 1'));
    // The clock moves by hand (no settle while the post hangs), a little wall time per step for the looks.
    while (fake.deletedMessages.length === 0 && clock.now() < sentAt + 60_000) {
      clock.set(clock.now() + 250);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    const [gone] = fake.deletedMessages;
    expect(gone).toBeDefined();
    const landedAt = createdAt(gone?.message ?? {});
    expect(landedAt).toBeGreaterThanOrEqual(sentAt + 50_000);
    // Before, the watch ran between the lane's attempts: it looked once the hung post's stall ended (11.7 s
    // measured with the bench's 10 s post timeout).
    expect((gone?.at ?? Number.POSITIVE_INFINITY) - landedAt).toBeLessThanOrEqual(3_500);
  }, 60_000);
});

describe('Discord REST only: several watches in one channel, copies landing at various phases', () => {
  // Three repeats watched at once; their late copies land 40 s after their posts plus a phase against the looks.
  it.each([0, 700, 1_400, 2_100])(
    'phase %i ms: each copy stands at most 3.5 s, as with one watch (one look serves all the watches)',
    async (phase) => {
      const { clock, fake, bot } = await startLive('rest');
      const sentAt = clock.now();
      for (let n = 0; n < 3; n += 1) {
        fake.faultMessages(lateCreate(40_000 + phase + n * 1_300), 1);
        await bot.offer(fanAt(clock, n));
        await bot.advance(1_000);
      }
      await runFor(bot, sentAt + 38_000 - clock.now(), 1_000);
      // Fine steps through the landings: each removal's time is read to a quarter second.
      await runFor(bot, 15_000, 250);
      expect(fake.deletedMessages).toHaveLength(3);
      // Before, each watch looked for its own copy only, and the channel's look every 3 s went to one watch in
      // turn: a copy waited up to three looks (bench lateAnswers: 4.6 and 5.6 s with two or three watches).
      const stood = fake.deletedMessages.map((d) => d.at - createdAt(d.message));
      expect(Math.max(...stood)).toBeLessThanOrEqual(3_500);
    },
  );
});

describe('Discord REST only: a late copy in a busy channel', () => {
  it('a notice a second: the late copy, past a page of 100, is removed by the watch within seconds', async () => {
    const { clock, removedIds, fake, bot } = await startLive('rest');
    const fan = (n: number) => fanAt(clock, n);
    for (let n = 0; n < 80; n += 1) {
      await bot.offer(fan(n));
      await bot.advance(1_000);
    }
    fake.faultMessages(lateCreate(60_000), 1);
    const sentAt = clock.now();
    await bot.offer(fan(100));
    for (let n = 101; clock.now() < sentAt + 75_000; n += 1) {
      await bot.offer(fan(n));
      await bot.advance(1_000);
    }
    expect(removedIds).toEqual(['f100']);
    expect(fake.deletedMessages).toHaveLength(1);
    // Each look reads on from where the last one read (less the clock margin), so its one page reaches the copy
    // however busy the channel was since the repeat: it stands no longer than in a quiet channel.
    const [gone] = fake.deletedMessages;
    const landedAt = createdAt(gone?.message ?? {});
    expect((gone?.at ?? Number.POSITIVE_INFINITY) - landedAt).toBeLessThanOrEqual(3_500);
  }, 60_000);
});

describe('Discord REST only: several late copies in one channel', () => {
  it("three repeats watched at once share the channel's looks: each late copy is removed within seconds", async () => {
    const { clock, removedIds, fake, bot } = await startLive('rest');
    const fan = (n: number) => fanAt(clock, n);
    // The bench's 500 bursts and late answers leave several repeats of one channel watched together: each
    // watch wants the channel's one look every 5 s. A watch that always looks first must not starve the rest.
    fake.faultMessages(lateCreate(40_000), 3);
    const sentAt = clock.now();
    for (let n = 0; n < 3; n += 1) {
      await bot.offer(fan(n));
      await bot.advance(1_000);
    }
    // The late copies land 40-42 s after; three watches, one look each 6 s: all gone within 3 looks after.
    await runFor(bot, sentAt + 42_000 + 3 * 6_000 + 2_000 - clock.now(), 1_000);
    expect([...removedIds].sort()).toEqual(['f0', 'f1', 'f2']);
    expect(fake.channelMessages.get(campaign.channelId) ?? []).toHaveLength(3);
  }, 60_000);
});

describe("Discord REST only: a late copy landing while the channel's posts wait out a 429", () => {
  it('the watch looks during the Retry-After (it posts nothing): the copy is gone within seconds, the held post after the wait', async () => {
    const { clock, removedIds, fake, bot } = await startLive('rest');
    const inChannel = () => fake.channelMessages.get(campaign.channelId) ?? [];
    fake.faultMessages(lateCreate(40_000), 1);
    const sentAt = clock.now();
    await bot.offer(fanAt(clock, 0));
    await bot.advance(settleMs);
    // The repeat stands; the watch for a late copy runs. The next post meets a 429 asking for 40 s.
    expect(inChannel()).toHaveLength(1);
    fake.faultMessages({ rateLimit: { retryAfterMs: 40_000 } }, 1);
    await runFor(bot, sentAt + 20_000 - clock.now(), 1_000);
    await bot.offer(fanAt(clock, 1));
    await bot.advance(1_000);
    const pausedUntil = clock.now() + 39_000;
    // The late copy lands at +40 s, inside the wait. Before, a watch due while the lane was paused woke the lane
    // at once, again and again (a timer spin: seed 8 hung), and looked only once the wait was over (+60 s).
    await runFor(bot, sentAt + 40_000 + 7_000 - clock.now(), 1_000);
    expect(clock.now()).toBeLessThan(pausedUntil);
    expect(removedIds).toEqual(['f0']);
    expect(inChannel()).toHaveLength(1);
    // The post held by the 429 goes out once its wait is over.
    await runFor(bot, pausedUntil + 2_000 - clock.now(), 1_000);
    expect(inChannel()).toHaveLength(2);
    expect(fake.deletedMessages).toHaveLength(1);
  }, 60_000);
});

describe('Discord REST only: a restart inside the watch', () => {
  it('the process started after the repeat goes on watching and removes the late copy', async () => {
    const clock = new ManualClock(Date.now());
    const store = memoryStore();
    const fake = await lateFake(clock);
    const start = () => startRestOnly(fake, { clock, store });
    let bot = await start();
    try {
      await bot.subscribe(campaign, ['supporters']);
      await bot.pacing.setKind(campaign, 'supporters', { mode: 'live' });
      fake.faultMessages(lateCreate(60_000), 1);
      const sentAt = clock.now();
      await bot.offer(buildEvent.supporter({ occurredAt: sentAt, detectedAt: sentAt }));
      await bot.advance(settleMs);
      expect(fake.channelMessages.get(campaign.channelId)).toHaveLength(1);
      // The process stops (a deploy, a crash) with the repeat made and the late post still to come.
      await bot.stop();
      bot = await start();
      await runFor(bot, sentAt + 60_000 + 7_000 - clock.now(), 1_000);
      expect(fake.channelMessages.get(campaign.channelId)).toHaveLength(1);
      expect(fake.deletedMessages).toHaveLength(1);
    } finally {
      await bot.stop();
      await fake.close();
    }
  });
});
