import { describe, expect, it } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { createDoubtResolver } from '../../src/delivery/doubt-resolver.js';
import { type LookSpanInput, nextLookSpan } from '../../src/delivery/look-span.js';
import { joinCovered } from '../../src/delivery/look-view.js';
import type { ChannelPoster, LookPage, LookRequest } from '../../src/delivery/ports.js';
import { memoryClaims } from '../../src/lib/coordination/claims.js';
import { memoryStore } from '../../src/lib/store.js';
import { t0 } from '../support/builders.js';
import { ManualClock } from '../support/manual-clock.js';

/** A doubt's span as the Slack poster gives it: 5 s of clock margin around an attempt at t0 settling in 15 s. */
const span: LookSpanInput = {
  earliest: t0 - 5_000,
  latest: t0 + 20_000,
  landedBy: t0 + 7_000,
  covered: undefined,
  continuation: undefined,
  newestFirstPageSize: 15,
  expected: () => 0,
  now: t0 + 30_000,
};
/** A channel taking a message a second. */
const aSecond = (from: number, to: number) => (to - from) / 1_000;

describe('the span of the next look', () => {
  it('a span one page holds is read whole: a post that never landed is proven absent at once', () => {
    expect(nextLookSpan({ ...span, expected: () => 12 })).toEqual({
      from: t0 - 5_000,
      to: t0 + 20_000,
      readAt: t0 + 30_000,
    });
  });

  it('a busier span is read where a received post lands first (a newest-first page would show it last)', () => {
    expect(nextLookSpan({ ...span, expected: aSecond })).toMatchObject({ from: t0 - 5_000, to: t0 + 7_000 });
  });

  it('then the rest, without reading again what was read after the doubts settled', () => {
    const covered = { from: t0 - 5_000, to: t0 + 7_000, readAt: t0 + 25_000 };
    expect(nextLookSpan({ ...span, covered, expected: aSecond })).toMatchObject({
      from: t0 + 7_000,
      to: t0 + 20_000,
    });
  });

  it('a platform whose pages start at the oldest end (Discord) reads the whole span', () => {
    const oldestFirst = { ...span, newestFirstPageSize: undefined, expected: aSecond };
    expect(nextLookSpan(oldestFirst)).toMatchObject({ to: t0 + 20_000 });
  });

  it('a sweep begun over the span goes on by its cursor, as old as its first page', () => {
    const continuation = { cursor: '15', from: t0 - 5_000, to: t0 + 20_000, readAt: t0 + 21_000 };
    expect(nextLookSpan({ ...span, continuation, expected: aSecond })).toEqual({
      from: t0 - 5_000,
      to: t0 + 20_000,
      cursor: '15',
      readAt: t0 + 21_000,
    });
  });

  it('two reads that touch cover their union, only as far back as the older read', () => {
    const older = { from: 0, to: 10, readAt: 100 };
    expect(joinCovered(older, { from: 10, to: 20, readAt: 200 })).toEqual({ from: 0, to: 20, readAt: 100 });
    expect(joinCovered(older, { from: 11, to: 20, readAt: 200 })).toEqual({ from: 11, to: 20, readAt: 200 });
  });
});

const channel: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'C1' };

/** A channel with a message every second, listed newest first, 15 a page, as Slack lists conversations.history. */
function busyChannel() {
  const requests: LookRequest[] = [];
  const at = Array.from({ length: 400 }, (_, i) => t0 - 100_000 + i * 1_000);
  const poster: ChannelPoster = {
    platform: 'slack',
    post: async () => ({ messageId: 'unused' }),
    doubt: {
      settleMs: 15_000,
      clockMarginMs: 5_000,
      repeatSafeMs: 0,
      newestFirstPageSize: 15,
      lookBudget: () => ({ scope: 'slack:T1:history', intervalMs: 60_000 }),
      async look(_channel, request): Promise<LookPage> {
        requests.push(request);
        const inSpan = at.filter((ms) => ms >= request.from && ms <= request.to).reverse();
        const offset = Number(request.cursor ?? 0);
        const page = inSpan.slice(offset, offset + 15);
        const complete = offset + 15 >= inSpan.length;
        return {
          found: new Map(page.map((ms) => [`key-${ms}`, `ts-${ms}`])),
          covered: { from: complete ? request.from : Math.min(...page), to: request.to },
          ...(complete ? {} : { cursor: String(offset + 15) }),
          shown: page.length,
        };
      },
    },
  };
  return { poster, requests };
}

describe('the pace a look measured', () => {
  it("is the fleet's: another replica, with no posts of its own there, reads the landing part first", async () => {
    const clock = new ManualClock(t0 + 20_000);
    const store = memoryStore();
    const claims = new Map();
    const { poster, requests } = busyChannel();
    const message = { text: 'a supporter' };
    // Replica a knows nothing of the pace yet: its look reads the whole span, newest first, and misses the post.
    const a = createDoubtResolver({ store, claims: memoryClaims(clock, 'a', claims), clock });
    const first = { key: `key-${t0}`, startedAt: t0, message };
    expect((await a.decide(poster, channel, undefined, [first])).get(first.key)?.kind).toBe('wait');
    expect(requests).toHaveLength(1);

    // Replica b, a minute later, with a doubt of its own in the same channel: the view's pace says busy.
    clock.set(t0 + 90_000);
    const b = createDoubtResolver({ store, claims: memoryClaims(clock, 'b', claims), clock });
    const second = { key: `key-${t0 + 70_000}`, startedAt: t0 + 70_000, message };
    const decided = await b.decide(poster, channel, undefined, [second]);
    expect(decided.get(second.key)).toEqual({ kind: 'posted', messageId: `ts-${t0 + 70_000}`, by: 'look' });
    expect(requests[1]).toMatchObject({ from: t0 + 65_000, to: t0 + 77_000 });
  });
});
