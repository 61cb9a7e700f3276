/**
 * /pacing and /quiet as Discord slash commands: registered from the one definition
 * (choices for kind and mode, an integer for minutes), run through the real adapter
 * and the real command core against the fake Discord, and shown by /subscriptions.
 */
import { ApplicationCommandOptionType, MessageFlags, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { buildDiscordCommandPayloads } from '../../src/adapters/discord/command-payloads.js';
import type { ChannelRef } from '../../src/core/ports.js';
import { createPacingSettings } from '../../src/core/settings/pacing-settings.js';
import { commandDefinitions } from '../../src/domain/command-definitions.js';
import { defaultGuild, type SentInteraction } from '../fakes/discord/fake-discord.js';
import { createCoreFixture } from '../support/core-fixture.js';
import { coreAdapterPerFile, interactionReply } from './adapter-harness.js';

interface ReplyBody {
  data?: { flags?: number; embeds?: { title?: string; description?: string }[]; content?: string };
}

const h = coreAdapterPerFile(() => createCoreFixture());
const admin = PermissionFlagsBits.ManageGuild;

const replyTo = (sent: SentInteraction) => interactionReply<ReplyBody>(h.fake, sent);

const shown = (body: ReplyBody) => JSON.stringify(body.data ?? {});

describe('/pacing and /quiet on Discord', () => {
  it('are registered with choices for kind and mode and an integer for minutes', () => {
    const pacing = buildDiscordCommandPayloads(commandDefinitions).find((p) => p.name === 'pacing');
    expect(pacing?.options).toMatchObject([
      { name: 'kind', type: ApplicationCommandOptionType.String, required: true },
      { name: 'mode', type: ApplicationCommandOptionType.String, required: true },
      { name: 'minutes', type: ApplicationCommandOptionType.Integer, required: false },
    ]);
    const mode = pacing?.options?.[1] as { choices?: { value: string }[] } | undefined;
    const modes = mode?.choices?.map((c) => c.value);
    expect(modes).toEqual(['auto', 'live', 'batched', 'hourly', 'digest']);
  });

  it('lets a member with Manage Server set them, refuses others, and /subscriptions shows them', async () => {
    const channel: ChannelRef = {
      platform: 'discord',
      workspaceId: defaultGuild.id,
      channelId: defaultGuild.channels[0]!.id,
    };
    await h.fixture.subscriptions.subscribe(channel, 'solar-kiosk', ['supporters', 'wall'], 'U1');
    const options = [
      { name: 'kind', value: 'supporters' },
      { name: 'mode', value: 'batched' },
      { name: 'minutes', value: 15 },
    ];
    const refused = await replyTo(h.fake.sendChatInput({ command: 'pacing', options }));
    expect(refused.data?.flags).toBe(MessageFlags.Ephemeral);
    expect((await createPacingSettings(h.fixture.store).get(channel)).kinds).toEqual({});

    const set = await replyTo(h.fake.sendChatInput({ command: 'pacing', options, permissions: admin }));
    expect(set.data?.flags).toBe(MessageFlags.Ephemeral);
    expect(shown(set)).toContain('supporters in this channel: batched every 15 min');
    const quiet = await replyTo(
      h.fake.sendChatInput({
        command: 'quiet',
        options: [
          { name: 'hours', value: '22:00-07:00' },
          { name: 'timezone', value: 'Europe/Berlin' },
        ],
        permissions: admin,
      }),
    );
    expect(shown(quiet)).toContain('Quiet hours 22:00-07:00 Europe/Berlin');

    const listed = shown(await replyTo(h.fake.sendChatInput({ command: 'subscriptions' })));
    expect(listed).toContain('supporters (batched every 15 min) and wall (live)');
    expect(listed).toContain('Quiet hours: 22:00-07:00 Europe/Berlin');
  });

  it('answers a wrong time range privately with what to type', async () => {
    const body = await replyTo(
      h.fake.sendChatInput({
        command: 'quiet',
        options: [{ name: 'hours', value: 'nightly' }],
        permissions: admin,
      }),
    );
    expect(body.data?.flags).toBe(MessageFlags.Ephemeral);
    expect(shown(body)).toContain('for example /quiet 22:00-07:00 Europe/Berlin');
  });
});
