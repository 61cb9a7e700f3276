/**
 * Journey: `npm start` (src/main.ts under tsx) on Discord in HTTP interactions mode (Ed25519-signed requests to
 * its endpoint, REST for notices), against the local fakes and the platform simulator, driven only from outside.
 */
import { expect } from 'vitest';
import { tsxEntry } from './harness/bot-process.js';
import { defineChatJourney } from './harness/chat-journey.js';
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
  },
});
