/**
 * Run as its own process by own-http-stack.test.ts: another undici takes the process-wide
 * dispatcher slot first (as @slack/socket-mode's undici 7 does when it loads before
 * discord.js), then fundbot's Discord REST posting sends a message with a 73 kB file to the
 * fake Discord. Prints the outcome as one JSON line.
 */
import 'undici';
import { createDiscordRestPosting } from '../../../src/adapters/discord/index.js';
import { systemClock } from '../../../src/lib/clock.js';
import { defaultGuild, startFakeDiscord } from '../../fakes/discord/fake-discord.js';

const fake = await startFakeDiscord();
const channelId = defaultGuild.channels[0]?.id ?? '';
const posting = createDiscordRestPosting({
  token: fake.token,
  apiUrl: fake.apiUrl,
  clock: systemClock,
});
const png = Buffer.alloc(73_000, 7);
let outcome: Record<string, unknown>;
try {
  await posting.poster.post(
    { platform: 'discord', workspaceId: defaultGuild.id, channelId },
    {
      title: 'Funding chart',
      image: { kind: 'attachment', filename: 'funding-solar-kiosk-2026-01-08.png', data: png, alt: 'chart' },
    },
    'own-http-stack:1',
  );
  const [message] = fake.channelMessages.get(channelId) ?? [];
  outcome = { ok: true, attachments: message?.['attachments'] };
} catch (error) {
  outcome = { ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}
await posting.close();
await fake.close();
process.stdout.write(`${JSON.stringify(outcome)}\n`);
