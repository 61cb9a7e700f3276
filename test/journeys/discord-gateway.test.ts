/**
 * Journey: `npm start` (src/main.ts under tsx) on Discord in gateway mode (the fake's WebSocket gateway and
 * REST), against the local fakes and the platform simulator, driven only from outside.
 */
import { expect } from 'vitest';
import { tsxEntry } from './harness/bot-process.js';
import { defineChatJourney } from './harness/chat-journey.js';
import { startDiscordDriver } from './harness/discord-driver.js';
import { journeyStep } from './harness/known-defects.js';

defineChatJourney('journey: npm start on Discord through the gateway', {
  name: 'discord-gateway',
  platform: 'discord',
  transport: 'gateway',
  entry: () => tsxEntry,
  startDriver: () => startDiscordDriver('gateway'),
  platformSteps: (state) => {
    journeyStep(
      'identifies with Guilds and GuildMessages (its own notices landing) only: no privileged intents needed',
      undefined,
      async () => {
        const identify = state.driver.fake.gatewayReceived.find((p) => p.op === 2);
        // Guilds (1 << 0) and GuildMessages (1 << 9); not GuildMembers, GuildPresences or MessageContent.
        expect((identify?.d as { intents?: number } | undefined)?.intents).toBe((1 << 0) | (1 << 9));
      },
    );
  },
});
