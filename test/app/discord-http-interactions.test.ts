/**
 * Discord HTTP interactions through the real entry point, driven by signed requests
 * as Discord sends them, against the fake Discord's REST: /subscribe posts its public
 * "now watching" as on the gateway, and a replayed interaction runs once, on one
 * replica or across two sharing a Redis.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { demoLinkCaption, type Simulator, startSimulator } from '../../src/simulator/index.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { type SignedInteractions, signedInteractions } from '../fakes/discord/signed-interactions.js';
import { compiledEntryForFile } from '../journeys/harness/compiled-entry.js';
import { freePort, type RedisServer, skipRedisTests, startRedisServer } from '../support/redis-server.js';
import { discordHttpConfig } from './helpers/discord-http-config.js';
import { type SpawnedBot, spawnBot } from './helpers/spawned-bot.js';

/** The compiled entry point (as the image runs it), built once per test run. */
const compiledEntry = compiledEntryForFile();

let sim: Simulator | undefined;
let discord: FakeDiscord | undefined;
let redis: RedisServer | undefined;
const bots: SpawnedBot[] = [];

afterEach(async () => {
  for (const bot of bots.splice(0)) bot.dispose();
  await discord?.close();
  await sim?.close();
  await redis?.stop();
});

/** Discord's Manage Server permission: /subscribe needs it. */
const manageGuild = 0x20n;

/** The simulator, the fake Discord and a Discord application key pair; `bot(store)` starts one replica on them. */
async function setUp() {
  sim = await startSimulator({ limits: { pro: { perMinute: 10_000, perDay: 1_000_000 } } });
  discord = await startFakeDiscord();
  const fake = discord;
  const signed = signedInteractions(fake);
  const key = sim.issueProjectKey(demoLinkCaption);
  const served = sim;
  const bot = async (storeUrl: string) => {
    const port = await freePort();
    const { json, env } = discordHttpConfig(served, fake, signed, port, {
      sections: { store: { url: storeUrl } },
      key,
    });
    const spawned = await spawnBot({ config: json, env, entry: compiledEntry() });
    bots.push(spawned);
    return `http://127.0.0.1:${port}/discord/interactions`;
  };
  return { fake, signed, bot };
}

function subscribe(signed: SignedInteractions) {
  return signed.chatInput({
    command: 'subscribe',
    permissions: manageGuild,
    options: [{ name: 'project', value: demoLinkCaption }],
  });
}

describe('Discord HTTP interactions through the real entry point', () => {
  it('/subscribe confirms privately and posts the public "now watching" as a follow-up', async () => {
    const { fake, signed, bot } = await setUp();
    const url = await bot('memory:');
    const interaction = subscribe(signed);
    const answer = await signed.post(url, interaction);
    expect(answer.status).toBe(200);
    const followUp = await fake.waitForRequest(
      (r) => r.method === 'POST' && r.path === `/webhooks/${fake.applicationId}/${interaction.token}`,
      10_000,
    );
    const body = followUp.body as { flags?: number; embeds?: { title?: string }[] };
    // Public: no ephemeral flag; the confirmation itself stayed private.
    expect(body.flags ?? 0).toBe(0);
    expect(body.embeds?.[0]?.title).toContain('fundbot is now watching Solar Kiosk');
    expect((answer.body as { data?: { flags?: number } }).data?.flags).toBe(64);
  }, 60_000);

  it('refuses a replayed interaction (the same bytes, or re-signed later) with 409 and runs it once; a stale signature gets 401', async () => {
    const { fake, signed, bot } = await setUp();
    const url = await bot('memory:');
    const interaction = subscribe(signed);
    expect((await signed.post(url, interaction)).status).toBe(200);
    const followUps = () =>
      fake.requests.filter((r) => r.path === `/webhooks/${fake.applicationId}/${interaction.token}`);
    await fake.waitForRequest((r) => followUps().includes(r), 10_000);

    // signed.post signs again with the current time: a captured request re-signed, or resent as it was.
    expect(await signed.post(url, interaction)).toEqual({
      status: 409,
      body: { error: 'interaction already handled' },
    });
    const sixMinutesAgo = Math.floor(Date.now() / 1000) - 6 * 60;
    const stale = await signed.post(url, signed.chatInput({ command: 'help' }), {
      kind: 'valid',
      timestampSeconds: sixMinutesAgo,
    });
    expect(stale.status).toBe(401);
    // A later command's full round trip: a second run of the replay would have posted by now.
    const help = await signed.post(url, signed.chatInput({ command: 'help' }));
    expect(help.status).toBe(200);
    expect(followUps()).toHaveLength(1);
  }, 60_000);

  it.skipIf(skipRedisTests())(
    'two replicas on one Redis: a replay sent to the other replica is refused too',
    async () => {
      redis = await startRedisServer();
      const { signed, bot } = await setUp();
      const [first, second] = [await bot(redis.url), await bot(redis.url)];
      const interaction = signed.chatInput({ command: 'help' });
      expect((await signed.post(first, interaction)).status).toBe(200);
      expect((await signed.post(second, interaction)).status).toBe(409);
      expect((await signed.post(second, signed.chatInput({ command: 'help' }))).status).toBe(200);
    },
    90_000,
  );
});
