/**
 * Exactly once on Discord: the REAL discord.js client (the gateway adapter's poster,
 * and the REST-only poster of HTTP interactions mode and replicas) in the real
 * delivery pipeline against the fake Discord. A slow answer and a crash around a post
 * give exactly one message: inside Discord's nonce window the repeat carries the same
 * nonce; after it, the bot's recent messages are read. Discord's rate-limit waits
 * (per route and global) are obeyed by the client.
 */
import { describe, expect, it } from 'vitest';
import { createDiscordRestPosting } from '../../src/adapters/discord/index.js';
import { DeliveryNotPostedError } from '../../src/delivery/index.js';
import { startAdapterPipeline, type TestAdapter } from '../delivery/adapter-pipeline.js';
import { liveIn, restartablePerTest } from '../delivery/restartable-process.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { buildEvent } from '../support/event-builders.js';
import type { ManualClock } from '../support/manual-clock.js';
import { fakeDiscordAdapter, recordingLogger } from './adapter-harness.js';
import {
  campaign,
  createsIn,
  nonceWindowMs,
  restTimeoutMs,
  settleMs,
  startDiscordAdapter,
} from './discord-pipeline.js';
import { RecordingCore } from './recording-core.js';

/**
 * The gateway adapter's poster, and the REST-only one (HTTP interactions mode, replicas
 * without the gateway): the same guarantee from both.
 */
const posters = {
  gateway: (fake: FakeDiscord, clock: ManualClock): Promise<TestAdapter> => startDiscordAdapter(fake, clock),
  rest: async (fake: FakeDiscord, clock: ManualClock): Promise<TestAdapter> => {
    const posting = createDiscordRestPosting({
      token: fake.token,
      apiUrl: fake.apiUrl,
      restTimeoutMs,
      clock,
    });
    return {
      poster: posting.poster,
      channelAccess: posting.channelAccess,
      stop: async () => posting.close(),
    };
  },
} as const;

describe.each(Object.keys(posters) as (keyof typeof posters)[])(
  'Discord (%s poster): exactly one message per event around slow answers and crashes',
  (kind) => {
    /** One "process" at a time over one SQLite file: a crash and a restart lose what is in memory, not the file. */
    const run = restartablePerTest({
      startFake: () => startFakeDiscord(),
      startBot: async (fake, options) =>
        startAdapterPipeline(fake, await posters[kind](fake, options.clock), options),
      setUp: liveIn(campaign),
      startsAt: Date.now,
      store: 'sqlite',
    });

    const inChannel = () => run.fake.channelMessages.get(campaign.channelId) ?? [];
    const creates = () => createsIn(run.fake, campaign.channelId);
    const looks = () => run.fake.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/messages'));
    const supporter = () =>
      buildEvent.supporter({ occurredAt: run.clock.now(), detectedAt: run.clock.now() });

    it('a slow answer (past the REST timeout) is repeated with the same nonce inside the window: one message', async () => {
      run.fake.faultMessages({ afterCreate: 'slow', delayMs: 1_500 });
      const event = supporter();
      await run.bot.offer(event);
      expect(inChannel()).toHaveLength(1);
      // Not while the first attempt may still land.
      await run.bot.advance(settleMs - 1);
      expect(creates()).toHaveLength(1);

      await run.bot.advance(1);
      expect(creates()).toHaveLength(2);
      expect(new Set(creates().map((r) => (r.body as { nonce: string }).nonce)).size).toBe(1);
      expect(inChannel()).toHaveLength(1);
      expect(looks()).toEqual([]);
      expect(await run.bot.offer(event)).toEqual([event.id]);
    });

    it('a crash right after the post, restart on the same SQLite file after the nonce window: found by reading, not posted', async () => {
      run.fake.faultMessages({ afterCreate: 'drop' });
      const event = supporter();
      await run.bot.offer(event);
      await run.start();
      // Past the window, Discord would create a second message for the same nonce.
      run.fake.setNonceWindowMs(0);
      run.clock.advance(nonceWindowMs);
      await run.bot.offer(event);
      await run.bot.advance(settleMs);
      expect(await run.bot.offer(event)).toEqual([event.id]);
      expect(creates()).toHaveLength(1);
      expect(inChannel()).toHaveLength(1);
      expect(looks()).toHaveLength(1);
      expect(BigInt(looks()[0]?.query['after'] ?? '0')).toBeLessThan(BigInt(String(inChannel()[0]?.['id'])));
      expect(run.resolved).toEqual([`${event.id}:found`]);
    });

    it('after the window, an attempt that never landed is posted once when the look shows it absent', async () => {
      run.fake.failChannel(campaign.channelId, { status: 502, code: 0, message: 'Bad Gateway' });
      const event = supporter();
      await run.bot.offer(event);
      expect(inChannel()).toHaveLength(0);
      run.fake.failChannel(campaign.channelId, undefined);
      run.fake.setNonceWindowMs(0);
      await run.start();
      run.clock.advance(nonceWindowMs);
      await run.bot.offer(event);
      await run.bot.advance(settleMs);
      expect(await run.bot.offer(event)).toEqual([event.id]);
      expect(inChannel()).toHaveLength(1);
      expect(run.resolved).toEqual([`${event.id}:absent`]);
    });
  },
);

describe("Discord: a rate limit is the delivery lane's wait, not the client's", () => {
  it('a per-route or a global 429 rejects the post at once with its Retry-After, and nothing is posted', async () => {
    const fake = await startFakeDiscord();
    const adapter = fakeDiscordAdapter(fake, {
      core: new RecordingCore(),
      logger: recordingLogger(),
      drainTimeoutMs: 100,
    });
    await adapter.start();
    try {
      const creates = () =>
        fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages')).length;
      const refusal = (text: string, key: string) =>
        adapter.poster.post(campaign, { text }, key).then(
          () => undefined,
          (error: unknown) => error,
        );

      fake.faultMessages({ rateLimit: { retryAfterMs: 1_200 } });
      const routeLimit = await refusal('after a route limit', 'evt:route');
      expect(routeLimit).toBeInstanceOf(DeliveryNotPostedError);
      expect((routeLimit as DeliveryNotPostedError).retryAfterMs).toBeGreaterThanOrEqual(1_200);
      expect(creates()).toBe(1);

      fake.faultMessages({ rateLimit: { retryAfterMs: 5_000, global: true } });
      const globalLimit = await refusal('after a global limit', 'evt:global');
      expect((globalLimit as DeliveryNotPostedError).retryAfterMs).toBeGreaterThanOrEqual(5_000);
      // The global wait is known to the client: the next post is refused without a request.
      const meanwhile = await refusal('during the global limit', 'evt:meanwhile');
      expect(meanwhile).toBeInstanceOf(DeliveryNotPostedError);
      expect(creates()).toBe(2);
      expect(fake.channelMessages.get(campaign.channelId) ?? []).toHaveLength(0);
    } finally {
      await adapter.stop();
      await fake.close();
    }
  });
});
