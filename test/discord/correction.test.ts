/**
 * Corrections on Discord through the real pipeline and the real discord.js client
 * against the fake: a support that drops out PATCHes the posted notice after a restart
 * (its id from the stored ledger), struck through, escaped, mentions off; offered
 * again, nothing more happens.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SupportDroppedEvent } from '../../src/domain/events.js';
import { memoryStore } from '../../src/lib/store.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { campaign as channel, type DiscordPipeline, startDiscordPipeline } from './discord-pipeline.js';

let fake: FakeDiscord | undefined;
const bots: DiscordPipeline[] = [];

afterEach(async () => {
  for (const bot of bots.splice(0)) await bot.stop();
  await fake?.close();
});

describe('Discord corrections', () => {
  it('a dropped support PATCHes the posted message after a restart: struck through, escaped, mentions off', async () => {
    const clock = new ManualClock(Date.now());
    const store = memoryStore();
    fake = await startFakeDiscord();
    const start = async () => {
      const bot = await startDiscordPipeline(fake!, { clock, store });
      bots.push(bot);
      return bot;
    };
    const first = await start();
    await first.subscribe(channel, ['supporters']);
    await first.pacing.setKind(channel, 'supporters', { mode: 'live' });
    const hostile = 'Eve @everyone ~~x~~ [click](https://evil.example)';
    const supporter = buildEvent.supporter({ id: 'solar-kiosk:supporter:d1', displayName: hostile });
    await first.offer(supporter);
    await first.stop();

    const drop: SupportDroppedEvent = {
      type: 'support-dropped',
      id: 'solar-kiosk:support-dropped:d1',
      project: 'solar-kiosk',
      occurredAt: clock.now(),
      detectedAt: clock.now(),
      originalEventId: supporter.id,
      entryKey: 'd1',
      displayName: hostile,
    };
    const second = await start();
    await second.offer(drop);
    expect(await second.offer(drop)).toEqual([drop.id]);
    const patches = fake.requests.filter(
      (r) => r.method === 'PATCH' && r.path.startsWith(`/channels/${channel.channelId}/messages/`),
    );
    expect(patches).toHaveLength(1);
    const body = patches[0]?.body as { embeds: { title: string }[]; allowed_mentions: unknown };
    expect(body.allowed_mentions).toEqual({ parse: [] });
    const title = body.embeds[0]?.title ?? '';
    expect(title.startsWith('~~')).toBe(true);
    expect(title.endsWith('~~')).toBe(true);
    expect(title).not.toContain('@everyone');
    expect(title).not.toContain('](https://');
  });
});
