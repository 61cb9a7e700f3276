import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/ops/index.js';
import { demoLinkCaption, startSimulator } from '../../src/simulator/index.js';
import { startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { signedInteractions } from '../fakes/discord/signed-interactions.js';
import { closeAfterTest } from '../support/close-after-test.js';
import { freePort } from '../support/redis-server.js';
import { discordHttpConfig } from './helpers/discord-http-config.js';
import { configOf, roomyLimits, startBotInTest } from './helpers/in-process-bot.js';

describe('discord.mode "http" through startBot', () => {
  it('answers a signed PING, refuses a bad signature with 401, defers /funding and completes it through the webhook, and never opens a gateway', async () => {
    const sim = closeAfterTest(await startSimulator({ limits: roomyLimits }));
    const discord = closeAfterTest(await startFakeDiscord());
    const fake = discord;
    const signed = signedInteractions(fake);
    const port = await freePort();
    const { json, env } = discordHttpConfig(sim, fake, signed, port);
    const config = configOf(json, env);

    // The configured DISCORD_API_URL, not an override: the composition root must hand it to the http adapter.
    await startBotInTest(config, silentLogger, 'e2e', {
      discordDeferAfterMs: 0,
      engineOptions: {
        targetIntervalsMs: { fundings: 200, project: 200, wall: 500, blog: 1_000, incentives: 1_000 },
      },
    });
    const url = `http://127.0.0.1:${port}/discord/interactions`;

    expect(await signed.post(url, signed.ping())).toEqual({ status: 200, body: { type: 1 } });
    for (const signing of [{ kind: 'other-key' }, { kind: 'tampered' }, { kind: 'none' }] as const) {
      expect((await signed.post(url, signed.ping(), signing)).status).toBe(401);
    }

    // /funding: deferred at once (type 5), then the answer replaces the placeholder through the webhook.
    const interaction = signed.chatInput({
      command: 'funding',
      options: [{ name: 'project', value: demoLinkCaption }],
    });
    const deferred = await signed.post(url, interaction);
    // Public (no ephemeral flag): /funding answers in the channel.
    expect(deferred).toEqual({ status: 200, body: { type: 5, data: {} } });
    const completion = await fake.waitForRequest(
      (r) =>
        r.method === 'PATCH' &&
        r.path === `/webhooks/${fake.applicationId}/${interaction.token}/messages/@original`,
      10_000,
    );
    const embed = (completion.body as { embeds?: { title?: string; description?: string }[] }).embeds?.[0];
    expect(embed?.title).toBe('Solar Kiosk for Every Neighbourhood');
    expect(completion.headers.authorization).toBeUndefined();

    expect(fake.gatewayReceived).toEqual([]);
    expect(fake.requests.some((r) => r.path === '/gateway/bot')).toBe(false);
  }, 40_000);
});
