import { afterEach, describe, expect, it } from 'vitest';
import { GATEWAY_LEASE } from '../../src/app/leased-gateway.js';
import { type RunningBot, startBot } from '../../src/app/start-bot.js';
import { parseConfig } from '../../src/config/index.js';
import { connectRedis } from '../../src/lib/coordination/redis-client.js';
import { redisLease } from '../../src/lib/coordination/redis-lease.js';
import { silentLogger } from '../../src/ops/index.js';
import { demoLinkCaption, type Simulator, startSimulator } from '../../src/simulator/index.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { freePort, type RedisServer, skipRedisTests, startRedisServer } from '../support/redis-server.js';
import { waitUntil } from '../support/wait-until.js';

/** Gateway IDENTIFY payloads (op 2): one per session a bot opened. */
const identifies = (fake: FakeDiscord) => fake.gatewayReceived.filter((p) => p.op === 2).length;

/** `fundbot_discord_gateway_held` from the replica's /metrics. */
async function gatewayHeld(bot: RunningBot): Promise<number> {
  const text = await (await fetch(`${bot.opsUrl}/metrics`)).text();
  return Number(/^fundbot_discord_gateway_held (\d+)$/m.exec(text)?.[1]);
}

async function stop(bot: RunningBot | undefined): Promise<void> {
  for (const step of bot?.shutdownSteps ?? []) await step.stop();
}

describe.skipIf(skipRedisTests())('discord gateway mode with two replicas on one real Redis', () => {
  let redis: RedisServer | undefined;
  let sim: Simulator | undefined;
  let discord: FakeDiscord | undefined;
  const bots: RunningBot[] = [];

  afterEach(async () => {
    for (const bot of bots.splice(0)) await stop(bot);
    await discord?.close();
    await sim?.close();
    await redis?.stop();
  });

  it('opens one gateway session for the fleet; the other replica takes over when the holder stops', async () => {
    redis = await startRedisServer();
    sim = await startSimulator({ limits: { pro: { perMinute: 10_000, perDay: 1_000_000 } } });
    discord = await startFakeDiscord();
    const fake = discord;
    const [apiUrl, storeUrl] = [sim.url, redis.url];
    const env = {
      SOLAR_KIOSK_API_KEY: sim.issueProjectKey(demoLinkCaption),
      DISCORD_TOKEN: fake.token,
      DISCORD_API_URL: fake.apiUrl,
    };
    const configFor = (port: number) => {
      const parsed = parseConfig(
        JSON.stringify({
          api: { baseUrl: apiUrl },
          store: { url: storeUrl, leaseTtlMs: 3_000 },
          projects: [{ linkCaption: demoLinkCaption, apiKeyEnv: 'SOLAR_KIOSK_API_KEY' }],
          discord: { enabled: true },
          digest: { enabled: false },
          http: { enabled: true, port },
        }),
        { env, source: 'test.json' },
      );
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
      return parsed.config;
    };

    const first = await startBot(configFor(await freePort()), silentLogger, 'a');
    bots.push(first);
    // The holder's start resolves once its session is ready.
    expect(identifies(fake)).toBe(1);
    const second = await startBot(configFor(await freePort()), silentLogger, 'b');
    bots.push(second);
    // The second replica's start made its first attempt on the lease (and lost it) before resolving.
    expect(identifies(fake)).toBe(1);
    const sockets = fake.requests.filter((r) => r.path === '/gateway/bot').length;
    expect(sockets).toBe(1);
    expect(await gatewayHeld(first)).toBe(1);
    expect(await gatewayHeld(second)).toBe(0);

    // The holder stops cleanly: it gives the lease back, and the standby connects at its next try (TTL/10).
    const client = await connectRedis(redis.url, () => {});
    const gatewayLease = redisLease(client, { prefix: 'fundbot:singleton:' });
    const holder = async () => (await gatewayLease.holders([GATEWAY_LEASE])).get(GATEWAY_LEASE)?.holder;
    const stoppedHolder = await holder();
    expect(stoppedHolder).toBeDefined();
    try {
      await stop(bots.shift());
      const stoppedAt = Date.now();
      // Given back, not left to expire: told by the lease itself once the stop is over (renewed every TTL/3, it
      // would hold 2 s at least). Timed from the stop's start, as before, a loaded machine's in-process shutdown
      // alone could eat the 2.5 s.
      expect(await holder()).not.toBe(stoppedHolder);
      await waitUntil('the standby replica to open the gateway', () => identifies(fake) === 2);
      // The standby's next try (TTL/10) and its login, well inside the TTL (3 s).
      expect(Date.now() - stoppedAt).toBeLessThan(2_500);
    } finally {
      client.destroy();
    }
    expect(fake.requests.filter((r) => r.path === '/gateway/bot')).toHaveLength(2);
    expect(await gatewayHeld(second)).toBe(1);
  }, 60_000);
});
