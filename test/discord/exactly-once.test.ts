/**
 * Issue 13 on Discord: the REAL discord.js client (the adapter's poster) and the
 * REAL notice router against the fake Discord. A slow answer and a crash around a
 * post give exactly one message: inside Discord's nonce window the retry carries
 * the same nonce; after it, the bot's recent messages are read. Issue 15 item 4:
 * Discord's rate-limit waits (per route and global) are obeyed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDiscordAdapter, createDiscordRestPosting } from '../../src/adapters/discord/index.js';
import { type ChannelRef, createSubscriptionStore } from '../../src/core/index.js';
import {
  type ChannelPoster,
  createNoticeRouter,
  NoticeDeliveryError,
  type NoticeRouter,
} from '../../src/delivery/index.js';
import { type KeyValueStore, openStore } from '../../src/lib/store.js';
import { defaultGuild, type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { recordingLogger } from './adapter-harness.js';
import { RecordingCore } from './recording-core.js';

const campaign: ChannelRef = {
  platform: 'discord',
  workspaceId: defaultGuild.id,
  channelId: defaultGuild.channels[0]!.id,
};
const restTimeoutMs = 300;
const settleMs = restTimeoutMs + 5_000;
const nonceWindowMs = 120_000;

/** A Discord poster as the bot runs it, and how to stop it. */
interface RunningPoster {
  readonly poster: ChannelPoster;
  stop(): Promise<void>;
}

/**
 * The gateway adapter's poster, and the REST-only one (HTTP interactions mode, replicas
 * without the gateway): the same guarantee from both.
 */
const posters = {
  gateway: async (fake: FakeDiscord, clock: ManualClock): Promise<RunningPoster> => {
    const adapter = createDiscordAdapter({
      token: fake.token,
      core: new RecordingCore(),
      logger: recordingLogger(),
      apiUrl: fake.apiUrl,
      restRetries: 0,
      restTimeoutMs,
      nonceWindowMs,
      clock,
      drainTimeoutMs: 100,
    });
    await adapter.start();
    return { poster: adapter.poster, stop: () => adapter.stop() };
  },
  rest: async (fake: FakeDiscord, clock: ManualClock): Promise<RunningPoster> => {
    const posting = createDiscordRestPosting({
      token: fake.token,
      apiUrl: fake.apiUrl,
      restRetries: 0,
      restTimeoutMs,
      clock,
    });
    return { poster: posting.poster, stop: async () => posting.close() };
  },
} as const;

describe.each(Object.keys(posters) as (keyof typeof posters)[])(
  'Discord (%s poster): exactly one message per event around slow answers and crashes',
  (kind) => {
    let dir: string;
    let clock: ManualClock;
    let fake: FakeDiscord;
    let store: KeyValueStore;
    let adapter: RunningPoster;
    let router: NoticeRouter;

    async function startBot(): Promise<void> {
      store = await openStore(`sqlite://${join(dir, 'state.sqlite')}`);
      adapter = await posters[kind](fake, clock);
      router = createNoticeRouter({
        core: {
          renderNotice: (event) => ({ title: 'New supporter', text: event.id }),
          localeFor: async () => 'en',
          timeZoneFor: async () => 'UTC',
        },
        subscriptions: createSubscriptionStore(store, { clock }),
        posters: [adapter.poster],
        store,
        clock,
      });
    }

    async function restartBot(): Promise<void> {
      await adapter.stop();
      await store.close();
      await startBot();
    }

    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), 'fundbot-discord-once-'));
      clock = new ManualClock(Date.now());
      fake = await startFakeDiscord();
      await startBot();
      await createSubscriptionStore(store, { clock }).subscribe(campaign, 'solar-kiosk', ['supporters'], 'U');
    });

    afterEach(async () => {
      await adapter.stop();
      await store.close();
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const inChannel = () => fake.channelMessages.get(campaign.channelId) ?? [];
    const creates = () =>
      fake.requests.filter(
        (r) => r.method === 'POST' && r.path === `/channels/${campaign.channelId}/messages`,
      );

    it('a slow answer (past the REST timeout) is retried with the same nonce inside the window: one message', async () => {
      fake.faultMessages({ afterCreate: 'slow', delayMs: 1_500 });
      const event = buildEvent.supporter();
      await expect(router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
      expect(inChannel()).toHaveLength(1);
      // Not while the first attempt may still land.
      await expect(router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
      expect(creates()).toHaveLength(1);

      clock.advance(settleMs);
      await router.deliver(event);
      expect(creates()).toHaveLength(2);
      expect(new Set(creates().map((r) => (r.body as { nonce: string }).nonce)).size).toBe(1);
      expect(inChannel()).toHaveLength(1);
    });

    it('a crash right after the post, restart on the same SQLite file after the nonce window: found by reading, not posted', async () => {
      fake.faultMessages({ afterCreate: 'drop' });
      const event = buildEvent.supporter();
      await expect(router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
      await restartBot();
      // Past the window, Discord would create a second message for the same nonce.
      fake.setNonceWindowMs(0);
      clock.advance(nonceWindowMs + settleMs);
      await router.deliver(event);
      await router.deliver(event);
      expect(creates()).toHaveLength(1);
      expect(inChannel()).toHaveLength(1);
      const looks = fake.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/messages'));
      expect(looks).toHaveLength(1);
      expect(BigInt(looks[0]?.query['after'] ?? '0')).toBeLessThan(BigInt(String(inChannel()[0]?.['id'])));
    });

    it('after the window, an attempt that never landed is posted once when the look shows it absent', async () => {
      fake.failChannel(campaign.channelId, { status: 502, code: 0, message: 'Bad Gateway' });
      const event = buildEvent.supporter();
      await expect(router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
      fake.failChannel(campaign.channelId, undefined);
      fake.setNonceWindowMs(0);
      await restartBot();
      clock.advance(nonceWindowMs + settleMs);
      await router.deliver(event);
      expect(inChannel()).toHaveLength(1);
    });
  },
);

describe("Discord: the platform's rate-limit waits are obeyed", () => {
  it('no request on the route before a per-route 429 ends, none at all before a global one ends', async () => {
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
      const timesOfCreates = () =>
        fake.requests
          .map((r, i) => ({ r, at: fake.requestTimes[i] ?? 0 }))
          .filter(({ r }) => r.method === 'POST' && r.path.endsWith('/messages'))
          .map(({ at }) => at);

      fake.faultMessages({ rateLimit: { retryAfterMs: 1_200 } });
      await adapter.poster.post(campaign, { text: 'after a route limit' }, 'evt:route');
      const [limited, retried] = timesOfCreates();
      expect(retried! - limited!).toBeGreaterThanOrEqual(1_200);

      fake.faultMessages({ rateLimit: { retryAfterMs: 1_000, global: true } });
      const before = fake.requests.length;
      await adapter.poster.post(campaign, { text: 'after a global limit' }, 'evt:global');
      const after = fake.requestTimes.slice(before);
      // The limited request, then nothing (no route) until the global wait is over.
      expect(after[1]! - after[0]!).toBeGreaterThanOrEqual(1_000);
      expect(fake.channelMessages.get(campaign.channelId)).toHaveLength(2);
    } finally {
      await adapter.stop();
      await fake.close();
    }
  });
});
