import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../commands/register-discord.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';

let fake: FakeDiscord;
beforeAll(async () => {
  fake = await startFakeDiscord();
});
afterAll(async () => {
  await fake.close();
});

/** Runs the script with a config file at FUNDBOT_CONFIG holding `config`. */
async function run(config: object | undefined, env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    [],
    {
      DISCORD_TOKEN: fake.token,
      DISCORD_API_URL: fake.apiUrl,
      FUNDBOT_CONFIG: '/etc/fundbot/config.json',
      ...env,
    },
    { out: (l) => out.push(l), err: (l) => err.push(l) },
    (path) => {
      if (path !== '/etc/fundbot/config.json' || config === undefined) {
        throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      }
      return JSON.stringify(config);
    },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('npm run commands:discord with the configured public URL', () => {
  it('prints the Interactions Endpoint URL from publicUrl and takes the application id from the file in http mode', async () => {
    const result = await run({
      publicUrl: 'https://bot.agency.example/',
      discord: { enabled: true, mode: 'http', applicationId: fake.applicationId },
    });
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      'Interactions Endpoint URL to https://bot.agency.example/discord/interactions',
    );
    expect(result.out).not.toContain('leave the Interactions Endpoint URL empty');
  });

  it('FUNDBOT_PUBLIC_URL wins over the file', async () => {
    const result = await run(
      { publicUrl: 'https://file.example', discord: { mode: 'http', applicationId: fake.applicationId } },
      { FUNDBOT_PUBLIC_URL: 'https://env.example/fundbot' },
    );
    expect(result.out).toContain('to https://env.example/fundbot/discord/interactions');
  });

  it('in gateway mode says to leave the endpoint empty, and says which setting completes the URL', async () => {
    const result = await run(undefined, { DISCORD_APPLICATION_ID: fake.applicationId });
    expect(result.code).toBe(0);
    expect(result.out).toContain('discord.mode is "gateway": leave the Interactions Endpoint URL empty');
    expect(result.out).toContain('set FUNDBOT_PUBLIC_URL or publicUrl to print the whole URL');
  });
});
