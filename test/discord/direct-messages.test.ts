import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDiscordDirectMessenger } from '../../src/adapters/discord/discord-direct-messages.js';
import { DirectMessageRefusedError } from '../../src/delivery/index.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';

let fake: FakeDiscord;
let messenger: ReturnType<typeof createDiscordDirectMessenger>;
const guild = { platform: 'discord', workspaceId: 'G1' } as const;

beforeAll(async () => {
  fake = await startFakeDiscord();
  messenger = createDiscordDirectMessenger({ token: fake.token, apiUrl: fake.apiUrl, timeoutMs: 5_000 });
});
afterAll(async () => {
  await messenger.close();
  await fake.close();
});

describe('Discord direct messages (the reward watch)', () => {
  test('opens the DM with POST /users/@me/channels {recipient_id}, then posts there, mentions off and text inert', async () => {
    await messenger.sendDirect(guild, '500000000000000001', { title: 'Back @everyone', text: '<@&1> kit' });
    const open = fake.requests.find((r) => r.method === 'POST' && r.path === '/users/@me/channels');
    expect(open?.body).toEqual({ recipient_id: '500000000000000001' });
    const [message] = fake.directMessagesTo('500000000000000001');
    expect(JSON.stringify(message)).toContain('Back');
    const post = fake.requests.find((r) => r.method === 'POST' && /^\/channels\/\d+\/messages$/.test(r.path));
    expect(post?.body).toMatchObject({ allowed_mentions: { parse: [] } });
  });

  test('a member who cannot be written to (50007) is a refusal, not a passing failure', async () => {
    fake.setDmUnreachable('500000000000000002', true);
    const refused = await messenger
      .sendDirect(guild, '500000000000000002', { text: 'x' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DirectMessageRefusedError);
    expect((refused as DirectMessageRefusedError).reason).toBe('discord 50007');
    expect(fake.directMessagesTo('500000000000000002')).toEqual([]);
  });
});
