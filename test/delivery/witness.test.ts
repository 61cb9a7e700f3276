import { describe, expect, it } from 'vitest';
import { createWitness } from '../../src/delivery/witness.js';
import type { ChannelRef } from '../../src/domain/channels.js';
import { memoryStore } from '../../src/lib/store.js';
import { ManualClock } from '../support/manual-clock.js';

const slackChannel: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'C1' };
const discordChannel: ChannelRef = { platform: 'discord', workspaceId: 'G1', channelId: '11' };

function witnessAt(start: number) {
  const clock = new ManualClock(start);
  const witness = createWitness({ store: memoryStore(), clock });
  const see = (channel: ChannelRef, messageId: string) =>
    witness.note({ channel, key: `k-${messageId}`, messageId, at: clock.now() });
  return { clock, witness, see };
}

describe('the witness of our own messages', () => {
  it("speaks for a post attempted while its workspace's events flowed, and says how far they reached", () => {
    const { clock, witness, see } = witnessAt(1_000_000);
    see(slackChannel, 'm1');
    const attempt = clock.now() + 1_000;
    clock.set(attempt + 5_000);
    see(slackChannel, 'm2');
    expect(witness.coveredSince(slackChannel, attempt)).toBe(true);
    expect(witness.passed(slackChannel)).toBe(attempt + 5_000);
    expect(witness.seen('k-m1')).toEqual(['m1']);
  });

  it('a dropped connection silences the platform until events flow again, for posts before the drop', () => {
    const { clock, witness, see } = witnessAt(2_000_000);
    see(slackChannel, 'm1');
    see(discordChannel, 'd1');
    const attemptBeforeDrop = clock.now() + 1_000;
    clock.set(attemptBeforeDrop + 2_000);
    witness.interrupted('slack');
    // Slack's events of the gap may be lost: neither coverage nor a landing horizon is claimed.
    expect(witness.live(slackChannel)).toBe(false);
    expect(witness.passed(slackChannel)).toBeUndefined();
    expect(witness.coveredSince(slackChannel, attemptBeforeDrop)).toBe(false);
    // Discord's stream did not drop.
    expect(witness.coveredSince(discordChannel, attemptBeforeDrop)).toBe(true);
    // Events flow again: they speak for posts attempted from then on, not for the one before the drop.
    clock.set(clock.now() + 10_000);
    see(slackChannel, 'm2');
    expect(witness.coveredSince(slackChannel, attemptBeforeDrop)).toBe(false);
    expect(witness.coveredSince(slackChannel, clock.now())).toBe(true);
    // What was sighted before the drop is still known.
    expect(witness.seen('k-m1')).toEqual(['m1']);
  });
});
