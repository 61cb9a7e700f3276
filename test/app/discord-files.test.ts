/**
 * Messages with a file (the funding chart) on Discord, through the real entry point in
 * gateway mode: `/chart` answers with the PNG, and the scheduled digest reaches the
 * channel with its chart. Both broke only in the whole process (fundbot's own undici
 * became the process-wide dispatcher that @discordjs/rest then used); a module test with
 * a 4-byte file never saw it.
 */
import { describe, expect, it } from 'vitest';
import { demoLinkCaption, startSimulator } from '../../src/simulator/index.js';
import { channelFaults, defaultGuild, startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { compiledEntryForFile } from '../journeys/harness/compiled-entry.js';
import { closeAfterTest } from '../support/close-after-test.js';
import { demoProjectConfig } from '../support/demo-project-config.js';
import { freePort } from '../support/redis-server.js';
import { waitUntil } from '../support/wait-until.js';
import { spawnBot } from './helpers/spawned-bot.js';

/** The compiled entry point (as the image runs it), built once per test run. */
const compiledEntry = compiledEntryForFile();

/** Discord's Manage Server permission: the admin commands need it. */
const manageGuild = 0x20n;
const channelId = '200000000000000001';
/** A second subscribed channel, where Discord answers 500 when the digest comes. */
const failingChannelId = '200000000000000002';
const guild = {
  ...defaultGuild,
  channels: [
    { id: channelId, name: 'campaign' },
    { id: failingChannelId, name: 'updates' },
  ],
};
const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * `HH:MM` in UTC of the first whole minute at least `leadMs` from now, and when it starts: the
 * digest's configured time, so the subscription made right after start comes before it.
 */
function nextDigestMinute(leadMs: number): { time: string; at: number } {
  const at = Math.ceil((Date.now() + leadMs) / 60_000) * 60_000;
  return { time: new Date(at).toISOString().slice(11, 16), at };
}

/**
 * The bot started with its digest at the first whole minute `leadMs` ahead, both channels subscribed to it.
 * `late`: the subscriptions were done less than 10 s before that minute, so its check may have found none.
 */
async function startSubscribedBot(leadMs: number) {
  const startedAt = Date.now();
  const sim = closeAfterTest(
    await startSimulator({ limits: { pro: { perMinute: 10_000, perDay: 1_000_000 } } }),
  );
  const fake = closeAfterTest(await startFakeDiscord({ guilds: [guild] }));
  const digest = nextDigestMinute(leadMs);
  const opsPort = await freePort();
  const bot = await spawnBot({
    entry: compiledEntry(),
    config: demoProjectConfig(sim, {
      discord: { enabled: true },
      digest: { enabled: true, time: digest.time, timeZone: 'UTC' },
      http: { enabled: true, port: opsPort },
    }),
    env: {
      SOLAR_KIOSK_API_KEY: sim.issueProjectKey(demoLinkCaption),
      DISCORD_TOKEN: fake.token,
      DISCORD_API_URL: fake.apiUrl,
    },
  });
  for (const where of [channelId, failingChannelId]) {
    const subscribe = fake.sendChatInput({
      command: 'subscribe',
      channelId: where,
      permissions: manageGuild,
      options: [
        { name: 'project', value: demoLinkCaption },
        { name: 'kinds', value: 'digest' },
      ],
    });
    await fake.waitForRequest((r) => r.path === `/interactions/${subscribe.id}/${subscribe.token}/callback`);
  }
  const late = Date.now() > digest.at - 10_000;
  return { fake, digest, opsPort, bot, late, setUpMs: Date.now() - startedAt };
}

describe('Discord files through the real entry point (gateway mode)', () => {
  it('/chart answers with the real PNG; the scheduled digest reaches the channel with its chart, and a failing channel shows in /healthz', async () => {
    // The digest's minute must come after the subscriptions. A start slower than the lead (a loaded machine)
    // is tried once more, with a lead that covers the set-up as it was measured.
    let started = await startSubscribedBot(35_000);
    if (started.late) {
      started.bot.dispose();
      started = await startSubscribedBot(started.setUpMs + 30_000);
    }
    const { fake, digest, opsPort, bot } = started;
    expect(started.late, 'subscribed before the digest minute').toBe(false);
    fake.failChannel(failingChannelId, channelFaults.serverError);

    // /chart: the answer carries the chart as a file, whichever route it takes (reply or deferred edit).
    const chart = fake.sendChatInput({
      command: 'chart',
      options: [{ name: 'project', value: demoLinkCaption }],
    });
    const answer = await fake.waitForRequest(
      (r) =>
        r.path.includes(chart.token) &&
        (r.files.length > 0 || JSON.stringify(r.body ?? '').includes('Something went wrong')),
      20_000,
    );
    expect(JSON.stringify(answer.body)).not.toContain('Something went wrong');
    const png = answer.files[0]?.data ?? Buffer.alloc(0);
    expect(png.subarray(0, 8)).toEqual(pngSignature);
    // A real chart, not a token file: tens of kilobytes.
    expect(png.length).toBeGreaterThan(10_000);

    // The digest at its configured minute (the hourly check fires 5 s into it).
    const posted = await waitUntil(
      'the digest in the channel',
      () =>
        fake.channelMessages
          .get(channelId)
          ?.find((m) => Array.isArray(m['attachments']) && (m['attachments'] as unknown[]).length > 0),
      { timeoutMs: digest.at - Date.now() + 40_000 },
    );
    const [attachment] = posted['attachments'] as { filename: string; size: number }[];
    expect(attachment?.filename).toMatch(/^funding-solar-kiosk-\d{4}-\d{2}-\d{2}\.png$/);
    expect(attachment?.size).toBeGreaterThan(10_000);
    expect(bot.output()).not.toContain('action is not a function');

    // The channel Discord answers 500: a delivery failure of the digest, with the reason, in /healthz.
    const { checks } = await waitUntil(
      'the failing digest in /healthz',
      async () => {
        const healthz = await fetch(`http://127.0.0.1:${opsPort}/healthz`);
        if (healthz.status !== 503) return undefined;
        return (await healthz.json()) as { checks: Record<string, { ok: boolean; detail: string }> };
      },
      { timeoutMs: 20_000 },
    );
    expect(checks['digest']?.ok).toBe(false);
    expect(checks['digest']?.detail).toContain(
      `the daily digest did not reach ${demoLinkCaption} discord:${guild.id}:${failingChannelId}`,
    );
    expect(checks['digest']?.detail).toContain('500');

    // The run reports the broken channel as still on its way (it is retried in its lane, with backoff,
    // until the end of the digest's day), and the channel is not hammered meanwhile.
    const run = await bot.waitForLog('the digest run', (r) => r.msg === 'digest: run finished', 40_000);
    expect(run).toMatchObject({ sent: 1, failed: 0, pending: 1 });
    const postsToBroken = fake.requests.filter(
      (r) => r.method === 'POST' && r.path === `/channels/${failingChannelId}/messages`,
    );
    expect(postsToBroken.length).toBeGreaterThan(0);
    // Each attempt is up to 4 POSTs (discord.js retries a 5xx 3 times, safe under enforce_nonce); the
    // pipeline's attempts back off 5 s, 10 s, 20 s...: at most 5 attempts fit the run's wait, not one every 2 s.
    expect(postsToBroken.length).toBeLessThanOrEqual(20);
  }, 420_000);
});
