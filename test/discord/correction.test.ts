/**
 * Corrections on Discord through the real pipeline and the real discord.js client
 * against the fake: a support that drops out PATCHes the posted notice after a restart
 * (its id from the stored ledger), struck through, escaped, mentions off; offered
 * again, nothing more happens.
 */
import { describe, expect, it } from 'vitest';
import { liveIn, restartablePerTest } from '../delivery/restartable-process.js';
import { supportDroppedOf } from '../delivery/support-dropped.js';
import { startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { buildEvent } from '../support/event-builders.js';
import { campaign as channel, startDiscordPipeline } from './discord-pipeline.js';

describe('Discord corrections', () => {
  const bot = restartablePerTest({
    startFake: () => startFakeDiscord(),
    startBot: startDiscordPipeline,
    setUp: liveIn(channel),
    startsAt: Date.now,
  });

  it('a dropped support PATCHes the posted message after a restart: struck through, escaped, mentions off', async () => {
    const first = await bot.start();
    const hostile = 'Eve @everyone ~~x~~ [click](https://evil.example)';
    const supporter = buildEvent.supporter({ id: 'solar-kiosk:supporter:d1', displayName: hostile });
    await first.offer(supporter);

    const drop = supportDroppedOf(supporter, 'd1', bot.clock.now());
    const second = await bot.start();
    await second.offer(drop);
    expect(await second.offer(drop)).toEqual([drop.id]);
    const patches = bot.fake.requests.filter(
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
