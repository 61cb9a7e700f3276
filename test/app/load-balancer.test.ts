/**
 * The load balancer of compose.replicas.yaml (deploy/Caddyfile), run as the `lb` service
 * runs it but with its upstreams pointed at two real replicas on this machine: Discord HTTP
 * interactions signed as Discord signs them reach both replicas through it, a replay sent
 * through it is refused whichever replica it lands on, and a replica that stops is skipped.
 * No Docker engine here: Caddy itself (Debian's `caddy`) runs the file; skipped, saying so,
 * when it is not installed.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoLinkCaption, type Simulator, startSimulator } from '../../src/simulator/index.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { signedInteractions } from '../fakes/discord/signed-interactions.js';
import { compiledEntryForFile } from '../journeys/harness/compiled-entry.js';
import { freePort, type RedisServer, skipRedisTests, startRedisServer } from '../support/redis-server.js';
import { waitUntil } from '../support/wait-until.js';
import { discordHttpConfig } from './helpers/discord-http-config.js';
import { repoRoot, type SpawnedBot, spawnBot } from './helpers/spawned-bot.js';

/** The compiled entry point (as the image runs it), built once per test run. */
const compiledEntry = compiledEntryForFile();

function caddyMissing(): boolean {
  const probe = spawnSync('caddy', ['version'], { encoding: 'utf8' });
  const missing = probe.error !== undefined || probe.status !== 0;
  if (missing)
    console.warn('caddy is not on PATH (apt-get install caddy): the load balancer test is skipped');
  return missing;
}

/**
 * Whether the local Caddy resends a POST to the next replica after a refused connection: 2.11.2 and later
 * (compose.replicas.yaml pins 2.11). Debian's 2.6 closes the body on the failed dial and answers 502.
 */
function caddyRetriesPosts(): boolean {
  const version = /v?(\d+)\.(\d+)\.(\d+)/.exec(
    spawnSync('caddy', ['version'], { encoding: 'utf8' }).stdout ?? '',
  );
  const [major = 0, minor = 0, patch = 0] = (version?.slice(1) ?? []).map(Number);
  const retries = major > 2 || (major === 2 && (minor > 11 || (minor === 11 && patch >= 2)));
  if (!retries) {
    console.warn(
      `caddy ${version?.[0] ?? '?'} is older than 2.11.2 (the image compose.replicas.yaml uses): the stopped-replica part of the load balancer test is skipped`,
    );
  }
  return retries;
}

let sim: Simulator | undefined;
let discord: FakeDiscord | undefined;
let redis: RedisServer | undefined;
let caddy: ChildProcess | undefined;
const bots: SpawnedBot[] = [];

afterEach(async () => {
  if (caddy?.exitCode === null) caddy.kill('SIGKILL');
  for (const bot of bots.splice(0)) bot.dispose();
  await discord?.close();
  await sim?.close();
  await redis?.stop();
});

/** `fundbot_command_duration_seconds_count` of /help on one replica's /metrics. */
async function helpCommands(opsPort: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${opsPort}/metrics`)).text();
  return Number(
    /^fundbot_command_duration_seconds_count\{[^}]*command="help"[^}]*\} (\d+)$/m.exec(text)?.[1] ?? 0,
  );
}

describe.skipIf(caddyMissing() || skipRedisTests())('the replicas load balancer (deploy/Caddyfile)', () => {
  it('spreads Discord interactions over the replicas, refuses a replay through it, and skips a stopped replica', async () => {
    redis = await startRedisServer();
    sim = await startSimulator({ limits: { pro: { perMinute: 10_000, perDay: 1_000_000 } } });
    discord = await startFakeDiscord();
    const fake = discord;
    const signed = signedInteractions(fake);
    const key = sim.issueProjectKey(demoLinkCaption);
    const replicas: { bot: SpawnedBot; interactionsPort: number; opsPort: number }[] = [];
    for (let i = 0; i < 2; i++) {
      const [interactionsPort, opsPort] = [await freePort(), await freePort()];
      const { json, env } = discordHttpConfig(sim, fake, signed, interactionsPort, {
        sections: { store: { url: redis.url }, http: { enabled: true, port: opsPort } },
        key,
      });
      const bot = await spawnBot({ config: json, env, entry: compiledEntry() });
      bots.push(bot);
      replicas.push({ bot, interactionsPort, opsPort });
    }

    const lbPort = await freePort();
    caddy = spawn(
      'caddy',
      ['run', '--config', join(repoRoot, 'deploy/Caddyfile'), '--adapter', 'caddyfile'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          LB_PORT: String(lbPort),
          DISCORD_UPSTREAMS: replicas.map((r) => `127.0.0.1:${r.interactionsPort}`).join(' '),
          SLACK_UPSTREAMS: '127.0.0.1:9',
        },
      },
    );
    const lb = `http://127.0.0.1:${lbPort}`;
    await waitUntil('the load balancer to listen', async () => {
      const answer = await fetch(`${lb}/`).catch(() => undefined);
      return answer?.status === 404;
    });
    const url = `${lb}/discord/interactions`;

    // A bad signature is refused by the replica behind it, as Discord's endpoint check expects.
    expect((await signed.post(url, signed.ping(), { kind: 'other-key' })).status).toBe(401);
    for (let i = 0; i < 6; i++)
      expect((await signed.post(url, signed.chatInput({ command: 'help' }))).status).toBe(200);
    const perReplica = await Promise.all(replicas.map((r) => helpCommands(r.opsPort)));
    expect(perReplica.reduce((a, b) => a + b, 0)).toBe(6);
    expect(Math.min(...perReplica)).toBeGreaterThan(0);

    const once = signed.chatInput({ command: 'help' });
    expect((await signed.post(url, once)).status).toBe(200);
    expect((await signed.post(url, once)).status).toBe(409);

    // One replica stops: every request still gets its answer from the other.
    if (!caddyRetriesPosts()) return;
    expect(await replicas[0]?.bot.stop()).toBe(0);
    for (let i = 0; i < 3; i++)
      expect((await signed.post(url, signed.chatInput({ command: 'help' }))).status).toBe(200);
  }, 120_000);
});
