import { describe, expect, it } from 'vitest';
import { ownMessageSighting } from '../../src/adapters/slack/own-message-events.js';
import { deliveryBlockId, markedBlocks, noticeMetadata } from '../../src/adapters/slack/slack-look.js';

const who = { botId: 'B0BOT', teamId: 'T0TEAM' };
const key = 'evt:supporter:solar-kiosk:42@slack:T0TEAM:C0CHAN';
const header: { type: string; block_id?: string } = { type: 'header' };
const event = (blocks: unknown[], metadata?: unknown) => ({
  channel: 'C0CHAN',
  bot_id: 'B0BOT',
  ts: '1772441998.137000',
  blocks,
  ...(metadata ? { metadata } : {}),
});

describe("Slack's message event for a notice names its delivery and the attempt that posted it", () => {
  it('from the first block, as events carry it without the metadata', () => {
    const blocks = markedBlocks([header], key, 1_772_441_920_500);
    expect(blocks[0]?.block_id).toBe(`fundbot.1772441920500:${key}`);
    expect(ownMessageSighting(event(blocks), who)).toEqual({
      channel: { platform: 'slack', workspaceId: 'T0TEAM', channelId: 'C0CHAN' },
      key,
      messageId: '1772441998.137000',
      at: 1_772_441_998_137,
      attemptAt: 1_772_441_920_500,
    });
  });

  it('from the metadata when it has the payload', () => {
    const sighting = ownMessageSighting(event([header], noticeMetadata(key, 1_772_441_955_000)), who);
    expect(sighting).toMatchObject({ key, attemptAt: 1_772_441_955_000 });
  });

  it('a message posted before attempts were marked (or without one) names the key alone', () => {
    const sighting = ownMessageSighting(event(markedBlocks([header], key)), who);
    expect(sighting?.key).toBe(key);
    expect(sighting && 'attemptAt' in sighting).toBe(false);
  });

  it('a key that leaves no room for the attempt in a block id keeps the key alone there', () => {
    const long = `${'k'.repeat(240)}@slack:T0TEAM:C0CHAN`.slice(0, 246);
    expect(deliveryBlockId(long, 1_772_441_920_500)).toBe(`fundbot:${long}`);
    expect(deliveryBlockId(`${long}${'k'.repeat(20)}`, 1)).toBeUndefined();
  });
});
