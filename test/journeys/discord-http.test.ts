/**
 * Journey: `npm start` (src/main.ts under tsx) on Discord in HTTP interactions mode (Ed25519-signed requests to
 * its endpoint, REST for notices), against the local fakes and the platform simulator, driven only from outside.
 */

import { join } from 'node:path';
import { expect } from 'vitest';
import { commandDefinitions } from '../../src/domain/command-definitions.js';
import { waitUntil } from '../support/wait-until.js';
import { startBotProcess, tsxEntry } from './harness/bot-process.js';
import { defineChatJourney } from './harness/chat-journey.js';
import type { ChatJourneyState } from './harness/chat-journey-state.js';
import type { DiscordDriver } from './harness/discord-driver.js';
import { startDiscordDriver } from './harness/discord-driver.js';
import { journeyStep } from './harness/known-defects.js';

defineChatJourney('journey: npm start on Discord with HTTP interactions', {
  name: 'discord-http',
  platform: 'discord',
  transport: 'http',
  entry: () => tsxEntry,
  startDriver: () => startDiscordDriver('http'),
  platformSteps: (state) => {
    journeyStep(
      "the endpoint passes Discord's check: PONG to a signed PING, 401 to a badly signed one; no gateway session",
      undefined,
      async () => {
        const { signed, fake } = state.driver;
        const url = state.driver.endpoint();
        expect(await signed.post(url, signed.ping())).toEqual({ status: 200, body: { type: 1 } });
        for (const signing of [{ kind: 'other-key' }, { kind: 'tampered' }, { kind: 'none' }] as const) {
          expect((await signed.post(url, signed.ping(), signing)).status, signing.kind).toBe(401);
        }
        expect(fake.gatewayReceived).toEqual([]);
      },
    );

    journeyStep(
      'a signed interaction replayed byte for byte within 5 minutes is not run a second time',
      undefined,
      async () => {
        const { signed } = state.driver;
        const url = state.driver.endpoint();
        const runs = () => commandRuns(state, 'status');
        const before = await runs();
        const interaction = signed.chatInput({ command: 'status' });
        const signing = { kind: 'valid', timestampSeconds: Math.floor(Date.now() / 1000) } as const;
        expect((await signed.post(url, interaction, signing)).status).toBe(200);
        await signed.post(url, interaction, signing);
        await waitUntil('the first /status run', async () => (await runs()) >= before + 1, {
          timeoutMs: 10_000,
        });
        // Another command answered since: a replay run would have been counted by now.
        await state.driver.command('help').answer();
        expect(await runs()).toBe(before + 1);
      },
    );

    journeyStep(
      'npm run commands:discord -- --guild … registers every command (admin ones for Manage Server) and prints the endpoint URL',
      undefined,
      async () => {
        const { fake } = state.driver;
        const run = registerCommands(state, ['--guild', guildId, '--public-url', 'https://bot.example.com']);
        expect(await run.exited(), run.output()).toBe(0);
        expect(run.stdout()).toContain('https://bot.example.com/discord/interactions');
        const registered = (fake.registeredCommands.get(guildId) ?? []) as {
          name: string;
          default_member_permissions?: string | null;
        }[];
        expect(registered.map((c) => c.name).sort()).toEqual(commandDefinitions.map((d) => d.name).sort());
        for (const definition of commandDefinitions.filter((d) => d.admin)) {
          const command = registered.find((c) => c.name === definition.name);
          expect(command?.default_member_permissions, definition.name).toBe('32');
        }
      },
      30_000,
    );

    journeyStep(
      'npm run commands:discord takes the http://localhost public URL the bot itself accepts',
      undefined,
      async () => {
        const url = 'http://localhost:3001';
        const run = registerCommands(state, ['--guild', guildId], { FUNDBOT_PUBLIC_URL: url });
        expect(await run.exited(), run.output()).toBe(0);
        expect(run.stdout()).toContain(`${url}/discord/interactions`);
      },
      30_000,
    );
  },
});

const guildId = '100000000000000001';

/** `npm run commands:discord -- …` with the journey's config file and the operator's Discord variables. */
function registerCommands(state: ChatJourneyState<DiscordDriver>, args: readonly string[], env = {}) {
  const { fake } = state.driver;
  return startBotProcess({
    name: 'npm run commands:discord',
    entry: tsxEntry,
    script: 'commands/register-discord.ts',
    args,
    cwd: state.world.dir,
    env: {
      FUNDBOT_CONFIG: join(state.world.dir, 'fundbot.config.json'),
      DISCORD_TOKEN: fake.token,
      DISCORD_API_URL: fake.apiUrl,
      ...env,
    },
  });
}

/** How many times fundbot ran `command` on Discord, from its own /metrics. */
async function commandRuns(state: ChatJourneyState<DiscordDriver>, command: string): Promise<number> {
  const metrics = await (await fetch(`http://127.0.0.1:${state.opsPort}/metrics`)).text();
  const series = new RegExp(
    `^fundbot_command_duration_seconds_count\\{[^}]*command="${command}"[^}]*\\} (\\d+)`,
    'gm',
  );
  return [...metrics.matchAll(series)].reduce((sum, m) => sum + Number(m[1]), 0);
}
