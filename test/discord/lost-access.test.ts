/**
 * Issue 21 on Discord, with the REAL discord.js client against the fake Discord and the
 * real delivery pipeline: an admin takes Send Messages from the bot's role, Discord
 * answers 50013 Missing Permissions; the notices are held (never dropped), the channel
 * is marked "cannot post"; when the permission is given back the re-check (the bot's
 * permissions from the gateway cache, updated by CHANNEL_UPDATE) releases them as ONE
 * catch-up, with every name: those the embed cannot hold go into a thread started on it,
 * and the count it states equals the names listed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runFor } from '../delivery/pipeline-harness.js';
import { defaultGuild, type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { countOfTitle, longNames, namesOfLine } from '../support/name-lists.js';
import { waitUntil } from '../support/wait-until.js';
import {
  allowSendMessages,
  campaign,
  createsIn,
  type DiscordPipeline,
  denySendMessages,
  embedOf,
  startDiscordPipeline,
} from './discord-pipeline.js';

let fake: FakeDiscord | undefined;
let bot: DiscordPipeline | undefined;

afterEach(async () => {
  await bot?.stop();
  await fake?.close();
  bot = undefined;
  fake = undefined;
});

const supporters = (names: readonly string[]) =>
  names.map((displayName, i) =>
    buildEvent.supporter({ id: `s${i + 1}`, displayName, supporterCount: 200 + i, fundingTotal: 9_000 + i }),
  );

describe('Discord: a channel where the bot lost Send Messages', () => {
  it('holds every notice (50013), marks it "cannot post", and releases one catch-up with every name in its thread', async () => {
    const clock = new ManualClock(Date.now());
    fake = await startFakeDiscord();
    const h = await startDiscordPipeline(fake, { clock });
    bot = h;
    await h.subscribe(campaign, ['supporters']);
    await h.pacing.setKind(campaign, 'supporters', { mode: 'live' });
    const canPost = async () => (await h.adapter.channelAccess.canPost(campaign)).ok;

    denySendMessages(fake);
    await waitUntil('the client to see the permission taken', async () => !(await canPost()), {
      timeoutMs: 5_000,
      everyMs: 0,
    });
    const names = longNames(150);
    const events = supporters(names);
    const since = clock.now();
    await h.offer(...events);
    // Held is done for the outbox once their batch is stored (a few seconds later, told at the next offer).
    await h.advance(5_000);
    expect(await h.offer(...events)).toEqual(events.map((e) => e.id));
    expect(fake.channelMessages.get(campaign.channelId) ?? []).toEqual([]);
    // One refusal told it all: the others were held without asking Discord again.
    expect(createsIn(fake, campaign.channelId)).toHaveLength(1);
    expect(h.delivery.status().cannotPost).toEqual([
      { channel: `discord:${defaultGuild.id}:${campaign.channelId}`, reason: 'no-permission', since },
    ]);
    expect(await h.access.get(campaign)).toMatchObject({ reason: 'no-permission' });

    // Re-checked while it lasts: still missing, still held.
    await runFor(h, 2 * 60_000, 5_000);
    expect(createsIn(fake, campaign.channelId)).toHaveLength(1);

    // The admin gives the permission back.
    allowSendMessages(fake);
    await waitUntil('the client to see the permission given back', canPost, { timeoutMs: 5_000, everyMs: 0 });
    await runFor(h, 5 * 60_000, 5_000);
    expect(h.delivery.status().cannotPost).toEqual([]);
    expect(await h.access.get(campaign)).toBeUndefined();

    const inChannel = fake.channelMessages.get(campaign.channelId) ?? [];
    expect(inChannel).toHaveLength(1);
    const parentId = String(inChannel[0]?.['id']);
    const starts = fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/threads'));
    expect(starts.map((r) => r.path)).toEqual([
      `/channels/${campaign.channelId}/messages/${parentId}/threads`,
    ]);
    // The thread takes the message's id: its messages are the rest of the names.
    const inThread = (fake.channelMessages.get(parentId) ?? []).map((m) => embedOf(m));
    expect(inThread.length).toBeGreaterThan(0);

    const catchUp = embedOf(inChannel[0]);
    expect(countOfTitle(catchUp.title ?? '')).toBe(150);
    const lines = (catchUp.description ?? '').split('\n');
    expect(lines[0]).toBe('Held while fundbot could not post in this channel');
    const inMessage = namesOfLine(lines[1] ?? '');
    const threadNames = inThread.flatMap((e) => namesOfLine(e.description ?? '').names);
    expect(inMessage.more).toBe(threadNames.length);
    expect([...inMessage.names, ...threadNames]).toEqual(names);
    expect(inThread.map((e) => e.title)).toEqual(
      inThread.map((_, i) => `Supporters, continued (${i + 1} of ${inThread.length})`),
    );
  });
});
