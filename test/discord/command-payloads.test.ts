import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ApplicationCommandOptionType, InteractionContextType, PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../commands/register-discord.js';
import { buildDiscordCommandPayloads } from '../../src/adapters/discord/command-payloads.js';
import { commandDefinitions } from '../../src/domain/command-definitions.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { processStartMs } from '../support/wait-until.js';

const payloads = buildDiscordCommandPayloads(commandDefinitions);
const byName = (name: string) => payloads.find((p) => p.name === name)!;

describe('buildDiscordCommandPayloads', () => {
  it('has one chat-input command per definition, under its canonical name', () => {
    expect(payloads.map((p) => p.name)).toEqual(commandDefinitions.map((c) => c.name));
  });

  it('maps option types: string 3, integer 4, and marks project options for autocomplete', () => {
    const reward = byName('reward');
    expect(reward.options).toMatchObject([
      { name: 'id', type: ApplicationCommandOptionType.Integer, required: true },
      { name: 'project', type: ApplicationCommandOptionType.String, required: false, autocomplete: true },
    ]);
    expect(ApplicationCommandOptionType.String).toBe(3);
    expect(ApplicationCommandOptionType.Integer).toBe(4);
  });

  it('carries fixed choices', () => {
    expect(byName('language').options?.[0]).toMatchObject({
      name: 'locale',
      choices: [
        { name: 'English', value: 'en' },
        { name: 'Deutsch', value: 'de' },
      ],
    });
  });

  it('limits admin commands to Manage Server by default and leaves the others open', () => {
    for (const definition of commandDefinitions) {
      expect(byName(definition.name).default_member_permissions).toBe(
        definition.admin ? String(PermissionFlagsBits.ManageGuild) : null,
      );
    }
    expect(byName('subscribe').default_member_permissions).toBe('32');
  });

  it('makes every command guild-only', () => {
    for (const payload of payloads) expect(payload.contexts).toEqual([InteractionContextType.Guild]);
  });

  it('localizes descriptions into German, within Discord’s 100 characters', () => {
    expect(byName('funding').description_localizations).toEqual({
      de: 'Stand der Kampagne: Finanzierung, Ziel, Unterstützer, Tempo',
    });
    const descriptions = payloads.flatMap((p) => [
      p.description,
      p.description_localizations?.de ?? '',
      ...(p.options ?? []).flatMap((o) => [o.description, o.description_localizations?.de ?? '']),
    ]);
    for (const text of descriptions) {
      expect(text.length).toBeGreaterThan(0);
      expect(text.length).toBeLessThanOrEqual(100);
    }
  });

  it('puts required options before optional ones, as Discord demands', () => {
    for (const payload of payloads) {
      const required = (payload.options ?? []).map((o) => ('required' in o ? o.required === true : false));
      expect(required).toEqual([...required].sort((a, b) => Number(b) - Number(a)));
    }
  });

  it('rejects a name Discord would reject', () => {
    expect(() =>
      buildDiscordCommandPayloads([
        { name: 'Fund Bot', description: { en: 'x', de: 'x' }, options: [], admin: false },
      ]),
    ).toThrow(/invalid/);
  });
});

describe('npm run commands:discord', () => {
  let fake: FakeDiscord;
  beforeAll(async () => {
    fake = await startFakeDiscord();
  });
  afterAll(async () => {
    await fake.close();
  });

  const run = async (argv: string[], env: Record<string, string | undefined>) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out, err };
  };

  it('puts the commands into one server with the bot token', async () => {
    const guildId = '100000000000000001';
    const result = await run(['--guild', guildId], {
      DISCORD_TOKEN: fake.token,
      DISCORD_APPLICATION_ID: fake.applicationId,
      DISCORD_API_URL: fake.apiUrl,
    });
    expect(result).toMatchObject({ code: 0, err: [] });
    const put = fake.requests.find((r) => r.method === 'PUT')!;
    expect(put.path).toBe(`/applications/${fake.applicationId}/guilds/${guildId}/commands`);
    expect(put.headers.authorization).toBe(`Bot ${fake.token}`);
    expect(put.body).toEqual(payloads);
    expect(fake.registeredCommands.has(guildId)).toBe(true);
  });

  it('says what to do when the token is missing, without calling Discord', async () => {
    const before = fake.requests.length;
    const result = await run([], {
      DISCORD_APPLICATION_ID: fake.applicationId,
      DISCORD_API_URL: fake.apiUrl,
    });
    expect(result.code).toBe(2);
    expect(result.err.join('\n')).toMatch(/DISCORD_TOKEN is not set.*Reset Token/);
    expect(fake.requests.length).toBe(before);
  });

  it('explains a rejected token (401) without echoing it', async () => {
    const result = await run([], {
      DISCORD_TOKEN: 'wrong-token.123456789',
      DISCORD_APPLICATION_ID: fake.applicationId,
      DISCORD_API_URL: fake.apiUrl,
    });
    expect(result.code).toBe(1);
    expect(result.err.join('\n')).toMatch(/401.*DISCORD_TOKEN/);
    expect(result.err.join('\n')).not.toContain('wrong-token.123456789');
  });

  it('runs as a script and registers globally', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'commands/register-discord.ts'],
      {
        env: {
          PATH: process.env['PATH'],
          DISCORD_TOKEN: fake.token,
          DISCORD_APPLICATION_ID: fake.applicationId,
          DISCORD_API_URL: fake.apiUrl,
        },
        timeout: processStartMs,
      },
    );
    expect(stdout).toMatch(/Registered \d+ Discord commands globally/);
    expect(fake.registeredCommands.has('global')).toBe(true);
  });
});
