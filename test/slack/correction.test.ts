/**
 * Corrections on Slack through the real pipeline and the real Web API client against
 * the fake: a support that drops out edits the posted notice with chat.update after a
 * restart (the message's ts comes from the stored ledger), struck through, its text
 * escaped; offered again, nothing more happens.
 */
import { describe, expect, it } from 'vitest';
import { liveIn } from '../delivery/restartable-process.js';
import { supportDroppedOf } from '../delivery/support-dropped.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';
import { restartableSlackPerTest, slackChannel } from './slack-pipeline.js';

const channel = slackChannel('C0CHAN');
describe('Slack corrections', () => {
  const bot = restartableSlackPerTest({
    setUp: liveIn(channel),
  });

  it('a dropped support edits the posted message with chat.update after a restart: struck through, escaped', async () => {
    const first = await bot.start();
    const hostile = 'Eve <!channel> <https://evil.example|click> *bold*';
    const supporter = buildEvent.supporter({ id: 'solar-kiosk:supporter:k1', displayName: hostile });
    await first.offer(supporter);
    const ts = bot.fake.messages.get(channel.channelId)?.[0]?.ts;
    expect(ts).toBeTruthy();

    const drop = supportDroppedOf(supporter, 'k1', t0);
    // A new process: the message's ts comes from the stored ledger.
    const second = await bot.start();
    await second.offer(drop);
    expect(await second.offer(drop)).toEqual([drop.id]);
    const updates = bot.fake.callsTo('chat.update');
    expect(updates).toHaveLength(1);
    expect(updates[0]?.args['ts']).toBe(ts);
    const blocks = JSON.stringify(updates[0]?.args['blocks']);
    // Struck through as rich text structure; the name stays literal text, no control sequence in it.
    expect(blocks).toContain('"style":{"strike":true}');
    expect(blocks).not.toContain('"type":"mrkdwn"');
    expect(blocks).not.toContain('<!channel>');
    expect(blocks).not.toContain('<https://evil.example');
    expect(bot.fake.callsTo('chat.postMessage')).toHaveLength(1);
  });
});
