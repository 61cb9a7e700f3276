import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../commands/register-discord.js';
import { interactionsEndpointUrl } from '../../src/adapters/discord/http-interactions/index.js';
import { createDiscordAdapter } from '../../src/adapters/discord/index.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { signedInteractions } from '../fakes/discord/signed-interactions.js';
import { RecordingCore } from './recording-core.js';

let fake: FakeDiscord;
beforeAll(async () => {
  fake = await startFakeDiscord();
});
afterAll(async () => {
  await fake.close();
});

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = {
    DISCORD_TOKEN: fake.token,
    DISCORD_APPLICATION_ID: fake.applicationId,
    DISCORD_API_URL: fake.apiUrl,
  };
  const code = await main(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

describe('npm run commands:discord for http mode', () => {
  it('prints the Interactions Endpoint URL built from --public-url', async () => {
    const result = await run(['--public-url', 'https://bot.example.com/fundbot']);
    expect(result.code).toBe(0);
    expect(result.out.join('\n')).toContain(
      'Interactions Endpoint URL to https://bot.example.com/fundbot/discord/interactions',
    );
  });

  it('names the path to append when no public URL is given', async () => {
    const result = await run([]);
    expect(result.out.join('\n')).toContain('https://<your public host>/discord/interactions');
  });

  it('refuses a plain http public URL to a remote host before calling Discord, with the bot’s own words', async () => {
    const before = fake.requests.length;
    const result = await run(['--public-url', 'http://bot.example.com']);
    expect(result.code).toBe(2);
    expect(result.err.join('\n')).toBe(
      '--public-url: uses plain http to a remote host, which would send the install redirect and interactions unencrypted: use https://, or http:// only for localhost (a local fake or the simulator)',
    );
    expect(fake.requests.length).toBe(before);
  });

  it('accepts http://localhost as the bot does, saying Discord itself needs https in front of it', async () => {
    const result = await run(['--public-url', 'http://localhost:3001']);
    expect(result.code).toBe(0);
    const out = result.out.join('\n');
    expect(out).toContain('Interactions Endpoint URL to http://localhost:3001/discord/interactions');
    expect(out).toContain('Discord itself calls only https');
  });

  it('keeps the base path and adds exactly one slash', () => {
    expect(interactionsEndpointUrl('https://bot.example.com/')).toBe(
      'https://bot.example.com/discord/interactions',
    );
    expect(interactionsEndpointUrl('https://bot.example.com/fundbot')).toBe(
      'https://bot.example.com/fundbot/discord/interactions',
    );
  });
});

describe('createDiscordAdapter with mode "http"', () => {
  it('answers interactions on its endpoint and never asks for a gateway', async () => {
    const discord = signedInteractions(fake);
    const adapter = createDiscordAdapter({
      mode: 'http',
      http: {
        applicationId: fake.applicationId,
        publicKey: discord.publicKeyHex,
        host: '127.0.0.1',
        port: 0,
      },
      token: fake.token,
      core: new RecordingCore(),
      restApiUrl: fake.apiUrl,
      restRetries: 0,
    });
    await adapter.start();
    try {
      const url = adapter.url ?? '';
      expect(await discord.post(url, discord.ping())).toEqual({ status: 200, body: { type: 1 } });
      expect(fake.requests.some((r) => r.path === '/gateway/bot')).toBe(false);
      expect(fake.gatewayReceived).toEqual([]);
    } finally {
      await adapter.stop();
    }
  });

  it('says what is missing when http mode lacks the application id and key', () => {
    expect(() => createDiscordAdapter({ mode: 'http', token: 't', core: new RecordingCore() })).toThrow(
      /application id and public key/,
    );
  });
});
