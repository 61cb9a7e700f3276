/**
 * Returned access is seen within a minute however long it was gone (issue 29, item 5): the re-checks of a
 * channel fundbot cannot post in stop growing at 40 s (±25 %), where they doubled to 10 minutes (access back
 * after a 7-minute outage was seen 239 s later). Virtual clock, the real pipeline, a scripted platform.
 */
import { describe, expect, it } from 'vitest';
import type { ChannelAccessResult, ChannelRef } from '../../src/core/ports.js';
import { memoryClaims } from '../../src/lib/coordination/claims.js';
import { memoryStore } from '../../src/lib/store.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { startPipeline } from './pipeline-harness.js';
import { ScriptedPoster } from './scripted-poster.js';

const channel: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'S1' };

async function heldChannel() {
  const clock = new ManualClock(t0);
  const slack = new ScriptedPoster('slack', clock);
  let result: ChannelAccessResult = { ok: false, reason: 'not-member' };
  const checkedAt: number[] = [];
  const h = await startPipeline({
    posters: [slack],
    clock,
    store: memoryStore(),
    access: {
      slack: {
        async canPost() {
          checkedAt.push(clock.now());
          return result;
        },
      },
    },
    claims: memoryClaims(clock, 'a', new Map()),
  });
  await h.subscribe(channel, ['supporters']);
  await h.pacing.setKind(channel, 'supporters', { mode: 'live' });
  slack.fail('S1', { kind: 'unavailable', reason: 'not-member' });
  await h.offer(buildEvent.supporter({ id: 's1', displayName: 'Held Fan' }));
  const restore = () => {
    result = { ok: true };
  };
  return { h, slack, clock, checkedAt, restore };
}

describe('a channel fundbot cannot post in', () => {
  it.each([2, 10, 120])(
    'whose access returns after %i minutes gets its held notices within 50 s of the return',
    async (minutes) => {
      const { h, slack, clock, restore } = await heldChannel();
      // Outage lengths that are not a multiple of the pace: the return falls anywhere between two checks.
      await h.advance(minutes * 60_000 + 7_000);
      expect(slack.in('S1')).toHaveLength(0);
      restore();
      const returnedAt = clock.now();
      while (slack.in('S1').length === 0 && clock.now() - returnedAt <= 60_000) await h.advance(1_000);
      expect(slack.in('S1').map((m) => m.message.title)).toEqual([
        expect.stringContaining('1 new supporter'),
      ]);
      expect(clock.now() - returnedAt).toBeLessThanOrEqual(50_000);
    },
  );

  it('costs at most 3 checks a minute at first and about 90 an hour while it lasts', async () => {
    const { h, checkedAt } = await heldChannel();
    await h.advance(60_000);
    expect(checkedAt.length).toBeLessThanOrEqual(3);
    await h.advance(59 * 60_000);
    expect(checkedAt.length).toBeGreaterThanOrEqual(70);
    expect(checkedAt.length).toBeLessThanOrEqual(120);
    const gaps = checkedAt.slice(1).map((at, i) => at - (checkedAt[i] ?? 0));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(50_000);
  });
});
