/**
 * Exactly once on Discord: the REAL discord.js client (the gateway adapter's poster,
 * and the REST-only poster of HTTP interactions mode and replicas) in the real
 * delivery pipeline against the fake Discord. A slow answer and a crash around a post
 * give exactly one message: inside Discord's nonce window the repeat carries the same
 * nonce; after it, the bot's recent messages are read. Discord's rate-limit waits
 * (per route and global) are obeyed by the client.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDiscordAdapter, createDiscordRestPosting } from '../../src/adapters/discord/index.js';
import { DeliveryNotPostedError } from '../../src/delivery/index.js';
import { type KeyValueStore, openStore } from '../../src/lib/store.js';
import { startAdapterPipeline, type TestAdapter } from '../delivery/adapter-pipeline.js';
import type { PipelineHarness } from '../delivery/pipeline-harness.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { recordingLogger } from './adapter-harness.js';
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
    let dir: string;
    let clock: ManualClock;
    let fake: FakeDiscord;
    let store: KeyValueStore;
    let bot: PipelineHarness;
    const resolved: string[] = [];

    async function startBot(): Promise<void> {
      store = await openStore(`sqlite://${join(dir, 'state.sqlite')}`);
      bot = await startAdapterPipeline(fake, await posters[kind](fake, clock), {
        store,
        clock,
        observer: { doubtResolved: ({ id, outcome }) => resolved.push(`${id}:${outcome}`) },
      });
    }

    async function restartBot(): Promise<void> {
      await bot.stop();
      await store.close();
      await startBot();
    }

    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), 'fundbot-discord-once-'));
      clock = new ManualClock(Date.now());
      resolved.length = 0;
      fake = await startFakeDiscord();
      await startBot();
      await bot.subscribe(campaign, ['supporters']);
      await bot.pacing.setKind(campaign, 'supporters', { mode: 'live' });
    });

    afterEach(async () => {
      await bot.stop();
      await store.close();
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const inChannel = () => fake.channelMessages.get(campaign.channelId) ?? [];
    const creates = () => createsIn(fake, campaign.channelId);
    const looks = () => fake.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/messages'));
    const supporter = () => buildEvent.supporter({ occurredAt: clock.now(), detectedAt: clock.now() });

    it('a slow answer (past the REST timeout) is repeated with the same nonce inside the window: one message', async () => {
      fake.faultMessages({ afterCreate: 'slow', delayMs: 1_500 });
      const event = supporter();
      await bot.offer(event);
      expect(inChannel()).toHaveLength(1);
      // Not while the first attempt may still land.
      await bot.advance(settleMs - 1);
      expect(creates()).toHaveLength(1);

      await bot.advance(1);
      expect(creates()).toHaveLength(2);
      expect(new Set(creates().map((r) => (r.body as { nonce: string }).nonce)).size).toBe(1);
      expect(inChannel()).toHaveLength(1);
      expect(looks()).toEqual([]);
      expect(await bot.offer(event)).toEqual([event.id]);
    });

    it('a crash right after the post, restart on the same SQLite file after the nonce window: found by reading, not posted', async () => {
      fake.faultMessages({ afterCreate: 'drop' });
      const event = supporter();
      await bot.offer(event);
      await restartBot();
      // Past the window, Discord would create a second message for the same nonce.
      fake.setNonceWindowMs(0);
      clock.advance(nonceWindowMs);
      await bot.offer(event);
      await bot.advance(settleMs);
      expect(await bot.offer(event)).toEqual([event.id]);
      expect(creates()).toHaveLength(1);
      expect(inChannel()).toHaveLength(1);
      expect(looks()).toHaveLength(1);
      expect(BigInt(looks()[0]?.query['after'] ?? '0')).toBeLessThan(BigInt(String(inChannel()[0]?.['id'])));
      expect(resolved).toEqual([`${event.id}:found`]);
    });

    it('after the window, an attempt that never landed is posted once when the look shows it absent', async () => {
      fake.failChannel(campaign.channelId, { status: 502, code: 0, message: 'Bad Gateway' });
      const event = supporter();
      await bot.offer(event);
      expect(inChannel()).toHaveLength(0);
      fake.failChannel(campaign.channelId, undefined);
      fake.setNonceWindowMs(0);
      await restartBot();
      clock.advance(nonceWindowMs);
      await bot.offer(event);
      await bot.advance(settleMs);
      expect(await bot.offer(event)).toEqual([event.id]);
      expect(inChannel()).toHaveLength(1);
      expect(resolved).toEqual([`${event.id}:absent`]);
    });
  },
);

describe("Discord: a rate limit is the delivery lane's wait, not the client's", () => {
  it('a per-route or a global 429 rejects the post at once with its Retry-After, and nothing is posted', async () => {
    const fake = await startFakeDiscord();
    const adapter = createDiscordAdapter({
      token: fake.token,
      core: new RecordingCore(),
      logger: recordingLogger(),
      apiUrl: fake.apiUrl,
      restRetries: 0,
      restTimeoutMs: 3_000,
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
