/**
 * Issue 29 on Discord (the real-bot chaos seed 12's duplicate): a notice whose post Discord took and created
 * late, in doubt, then refused on its repeat because the bot lost Send Messages, is held for the channel's
 * catch-up; the original lands meanwhile. Discord's MESSAGE_CREATE names it only by its nonce, never by the
 * delivery's key: the name must still stand once (the catch-up leaves it out). The real discord.js client
 * (gateway, GuildMessages) against the fake Discord, the pipeline on a virtual clock set to now.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runFor } from '../delivery/pipeline-harness.js';
import { type FakeDiscord, lateCreate, startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { ManualClock } from '../support/manual-clock.js';
import {
  allowSendMessages,
  campaign,
  type DiscordPipeline,
  denySendMessages,
  fanAt,
  startWitnessedDiscordPipeline,
} from './discord-pipeline.js';

let fake: FakeDiscord | undefined;
let bot: DiscordPipeline | undefined;

afterEach(async () => {
  await bot?.stop();
  await fake?.close();
  bot = undefined;
  fake = undefined;
});

/** The channel's messages that name `name`. */
const naming = (f: FakeDiscord, name: string) =>
  (f.channelMessages.get(campaign.channelId) ?? []).filter((m) => JSON.stringify(m).includes(name));

/** The witnessed bot posting live in the campaign channel, on a clock set to now, after Fan 0 was posted. */
async function liveChannelWithFan0() {
  const clock = new ManualClock(Date.now());
  fake = await startFakeDiscord({ sleep: (ms) => clock.sleep(ms), now: () => clock.now() });
  const f = fake;
  const b = await startWitnessedDiscordPipeline(f, { clock });
  bot = b;
  await b.subscribe(campaign, ['supporters']);
  await b.pacing.setKind(campaign, 'supporters', { mode: 'live' });
  await b.offer(fanAt(clock, 0));
  await runFor(b, 2_000, 500);
  return { clock, f, b };
}

describe('Discord: a notice held for the catch-up that lands late after all', () => {
  it('created 30 s late, its repeat refused (50013) and held: it stands once, the catch-up names only the others', async () => {
    const { clock, f, b } = await liveChannelWithFan0();
    expect(naming(f, 'Fan 0')).toHaveLength(1);
    // Taken, created and answered 30 s later; meanwhile the bot loses Send Messages in the channel.
    f.faultMessages(lateCreate(30_000), 1);
    const sentAt = clock.now();
    await b.offer(fanAt(clock, 1));
    denySendMessages(f);
    await runFor(b, 20_000, 1_000);
    await b.offer(fanAt(clock, 2));
    // The original lands; its MESSAGE_CREATE reaches the bot while the catch-up still holds the name.
    await runFor(b, sentAt + 32_000 - clock.now(), 1_000);
    expect(naming(f, 'Fan 1')).toHaveLength(1);
    expect(naming(f, 'Fan 2')).toHaveLength(0);
    // Send Messages given back: the catch-up goes out.
    allowSendMessages(f);
    await runFor(b, 3 * 60_000, 5_000);
    await b.settle();
    expect(naming(f, 'Fan 2')).toHaveLength(1);
    expect(naming(f, 'Fan 1')).toHaveLength(1);
  }, 60_000);

  it('the catch-up went out first, naming it: the original created 60 s late is removed as it lands', async () => {
    const { clock, f, b } = await liveChannelWithFan0();
    f.faultMessages(lateCreate(60_000), 1);
    const sentAt = clock.now();
    await b.offer(fanAt(clock, 1));
    denySendMessages(f);
    await runFor(b, 20_000, 1_000);
    // Given back at once: the catch-up naming Fan 1 goes out before the original lands.
    allowSendMessages(f);
    await runFor(b, sentAt + 59_000 - clock.now(), 1_000);
    expect(naming(f, 'Fan 1')).toHaveLength(1);
    await runFor(b, 5_000, 1_000);
    await f.waitForRequest((r) => r.method === 'DELETE', 10_000);
    await b.settle();
    expect(naming(f, 'Fan 1')).toHaveLength(1);
    expect(f.deletedMessages).toHaveLength(1);
  }, 60_000);
});
