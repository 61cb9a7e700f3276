import { describe, expect, it } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { createDoubtResolver } from '../../src/delivery/doubt-resolver.js';
import type { ChannelPoster, LookPage, LookRequest } from '../../src/delivery/ports.js';
import { memoryClaims } from '../../src/lib/coordination/claims.js';
import { memoryStore } from '../../src/lib/store.js';
import { t0 } from '../support/builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { operationCountingStore } from '../support/operation-counting-store.js';

const channel: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'S1' };
const intervalMs = 60_000;

/**
 * A platform that counts its look limit from when a call REACHES it (as Slack does for
 * conversations.history: one a minute for apps outside the Marketplace) and answers an
 * earlier one with 429. The first look of a process is preceded by a slower call (the
 * Slack poster asks auth.test who it is before its first look), so it reaches the
 * platform `firstLatencyMs` after it was started; later looks reach it at once.
 * Each page shows part of the span: the doubt needs several looks.
 */
function platform(clock: ManualClock, firstLatencyMs: number) {
  const arrivals: number[] = [];
  const poster: ChannelPoster = {
    platform: 'slack',
    post: async () => ({ messageId: 'unused' }),
    doubt: {
      settleMs: 15_000,
      clockMarginMs: 0,
      repeatSafeMs: 0,
      lookBudget: () => ({ scope: 'slack:T1:history', intervalMs }),
      async look(_channel, request: LookRequest): Promise<LookPage> {
        if (arrivals.length === 0) clock.advance(firstLatencyMs);
        const last = arrivals.at(-1);
        arrivals.push(clock.now());
        if (last !== undefined && clock.now() < last + intervalMs)
          throw Object.assign(new Error('ratelimited (HTTP 429)'), { status: 429 });
        // Newest first, one page at a time: the span is covered only after a few looks.
        return {
          found: new Map(),
          covered: { from: request.to - 1_000, to: request.to },
          cursor: `page-${arrivals.length}`,
        };
      },
    },
  };
  return { poster, arrivals };
}

describe('doubt resolver: the shared look budget', () => {
  it('times the next look from when the last one was answered, so the platform never sees it early', async () => {
    const clock = new ManualClock(t0);
    const resolver = createDoubtResolver({ store: memoryStore(), claims: memoryClaims(clock, 'a'), clock });
    const { poster, arrivals } = platform(clock, 2_000);
    const doubt = { key: 'e1@slack:T1:S1', startedAt: t0, message: { text: 'Ada backed the project' } };
    clock.set(t0 + 15_000);
    for (let look = 0; look < 3; look += 1) {
      const decision = (await resolver.decide(poster, channel, undefined, [doubt])).get(doubt.key);
      expect(decision?.kind).toBe('wait');
      if (decision?.kind === 'wait') clock.set(decision.until);
    }
    expect(arrivals).toHaveLength(3);
    // Slack's own count: at least a minute between two calls that reached it.
    for (let i = 1; i < arrivals.length; i += 1)
      expect(arrivals[i]! - arrivals[i - 1]!).toBeGreaterThanOrEqual(intervalMs);
  });

  it('a look costs two writes: what it showed, and the budget timed from its answer', async () => {
    const clock = new ManualClock(t0);
    const store = operationCountingStore(memoryStore());
    const resolver = createDoubtResolver({ store, claims: memoryClaims(clock, 'a'), clock });
    const { poster, arrivals } = platform(clock, 0);
    const doubt = { key: 'e1@slack:T1:S1', startedAt: t0, message: { text: 'Ada backed the project' } };
    clock.set(t0 + 15_000);
    await resolver.decide(poster, channel, undefined, [doubt]);
    expect(arrivals).toHaveLength(1);
    expect(store.counts.writes).toBe(2);
  });

  it('a look claimed by a replica that died mid-look is made soon after its claim lapses, not an interval after', async () => {
    // Chaos seed 120: the replica that claimed the look was killed before its call went out; the survivor, finding
    // the budget claimed, waited a whole interval from then (61 s) and the doubt outlived its 120 s bound.
    const clock = new ManualClock(t0);
    const store = memoryStore();
    const table = new Map();
    const dying = createDoubtResolver({ store, claims: memoryClaims(clock, 'dying', table), clock });
    const survivor = createDoubtResolver({ store, claims: memoryClaims(clock, 'survivor', table), clock });
    const { poster, arrivals } = platform(clock, 0);
    let lookStarted = () => {};
    const started = new Promise<void>((resolve) => {
      lookStarted = resolve;
    });
    // Its look never reaches the platform: the process dies first.
    const dyingPoster: ChannelPoster = {
      ...poster,
      doubt: {
        ...poster.doubt!,
        look: () => {
          lookStarted();
          return new Promise<never>(() => {});
        },
      },
    };
    const doubt = { key: 'e1@slack:T1:S1', startedAt: t0, message: { text: 'Ada backed the project' } };
    clock.set(t0 + 15_000);
    const claimedAt = clock.now();
    void dying.decide(dyingPoster, channel, undefined, [doubt]);
    await started;
    clock.set(t0 + 35_000);
    while (arrivals.length === 0 && clock.now() < t0 + 5 * intervalMs) {
      const decision = (await survivor.decide(poster, channel, undefined, [doubt])).get(doubt.key);
      if (decision?.kind !== 'wait') break;
      clock.set(decision.until);
    }
    // The claim lapses an interval (and the spacing margin) after it was taken; the survivor asks every 5 s.
    expect(arrivals).toHaveLength(1);
    expect(arrivals[0]!).toBeGreaterThanOrEqual(claimedAt + intervalMs);
    expect(arrivals[0]!).toBeLessThanOrEqual(claimedAt + intervalMs + 1_000 + 5_000);
  });

  it('a look for copies that finds the claim held by another process asks again in 5 s, not an interval after', async () => {
    // The doubt resolver's rule (seed 120) for the watch for late copies too: a replica killed mid-look holds the
    // claim up to an interval, and a watch that waited a whole interval from finding it taken looked late.
    const clock = new ManualClock(t0);
    const table = new Map();
    const watcher = createDoubtResolver({
      store: memoryStore(),
      claims: memoryClaims(clock, 'a', table),
      clock,
    });
    const { poster, arrivals } = platform(clock, 0);
    clock.set(t0 + 15_000);
    table.set('look:slack:T1:history', { owner: 'b', until: clock.now() + intervalMs });
    const watch = {
      wanted: [{ key: 'e1@slack:T1:S1', message: { text: 'Ada backed the project' } }],
      from: t0,
    };
    const first = await watcher.lookForCopies(poster, channel, undefined, watch);
    expect(arrivals).toHaveLength(0);
    expect(first.nextAt).toBe(clock.now() + 5_000);
  });
});
