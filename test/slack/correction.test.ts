/**
 * Corrections on Slack through the real pipeline and the real Web API client against
 * the fake: a support that drops out edits the posted notice with chat.update after a
 * restart (the message's ts comes from the stored ledger), struck through, its text
 * escaped; offered again, nothing more happens.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SupportDroppedEvent } from '../../src/domain/events.js';
import { memoryStore } from '../../src/lib/store.js';
import type { FakeSlack } from '../fakes/slack/fake-slack.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import {
  type SlackPipeline,
  slackChannel,
  startClockedFakeSlack,
  startSlackPipeline,
} from './slack-pipeline.js';

const channel = slackChannel('C0CHAN');
let fake: FakeSlack | undefined;
const bots: SlackPipeline[] = [];

afterEach(async () => {
  for (const bot of bots.splice(0)) await bot.stop();
  await fake?.close();
});

describe('Slack corrections', () => {
  it('a dropped support edits the posted message with chat.update after a restart: struck through, escaped', async () => {
    const clock = new ManualClock(t0);
    const store = memoryStore();
    fake = await startClockedFakeSlack(clock);
    const start = async () => {
      const bot = await startSlackPipeline(fake!, { clock, store });
      bots.push(bot);
      return bot;
    };
    const first = await start();
    await first.subscribe(channel, ['supporters']);
    await first.pacing.setKind(channel, 'supporters', { mode: 'live' });
    const hostile = 'Eve <!channel> <https://evil.example|click> *bold*';
    const supporter = buildEvent.supporter({ id: 'solar-kiosk:supporter:k1', displayName: hostile });
    await first.offer(supporter);
    const ts = fake.messages.get(channel.channelId)?.[0]?.ts;
    expect(ts).toBeTruthy();
    await first.stop();

    const drop: SupportDroppedEvent = {
      type: 'support-dropped',
      id: 'solar-kiosk:support-dropped:k1',
      project: 'solar-kiosk',
      occurredAt: t0,
      detectedAt: t0,
      originalEventId: supporter.id,
      entryKey: 'k1',
      displayName: hostile,
    };
    // A new process: the message's ts comes from the stored ledger.
    const second = await start();
    await second.offer(drop);
    expect(await second.offer(drop)).toEqual([drop.id]);
    const updates = fake.callsTo('chat.update');
    expect(updates).toHaveLength(1);
    expect(updates[0]?.args['ts']).toBe(ts);
    const blocks = JSON.stringify(updates[0]?.args['blocks']);
    // Struck through as rich text structure; the name stays literal text, no control sequence in it.
    expect(blocks).toContain('"style":{"strike":true}');
    expect(blocks).not.toContain('"type":"mrkdwn"');
    expect(blocks).not.toContain('<!channel>');
    expect(blocks).not.toContain('<https://evil.example');
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
  });
});
