/**
 * Journey: `npm start` (src/main.ts under tsx) on Discord in HTTP interactions mode (Ed25519-signed requests to its endpoint, REST for notices), against the local fakes and the platform simulator,
 * driven only from outside.
 */
import { tsxEntry } from './harness/bot-process.js';
import { defineChatJourney } from './harness/chat-journey.js';
import { startDiscordDriver } from './harness/discord-driver.js';

defineChatJourney('journey: npm start on Discord with HTTP interactions', {
  name: 'discord-http',
  platform: 'discord',
  transport: 'http',
  entry: () => tsxEntry,
  startDriver: () => startDiscordDriver('http'),
});
