/**
 * When a Slack doubt spends its look (look-timing.ts): without message events a post may land up to 90 s after
 * its attempt, so only a look after that can prove it absent, and the workspace allows one look a minute. An
 * early look is made only while that deciding look still fits a minute after it, and a channel's deciding look
 * is not taken by another channel's early one. The resolver is driven as the delivery lanes drive it: each
 * doubt is decided again when its 'wait' says. Virtual clock, the real in-memory store and claims.
 */
import { describe, expect, it } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { createDoubtResolver, type DoubtResolver } from '../../src/delivery/doubt-resolver.js';
import { lookTiming } from '../../src/delivery/look-timing.js';
import type { ChannelPoster, LookPage } from '../../src/delivery/ports.js';
import { memoryClaims } from '../../src/lib/coordination/claims.js';
import { memoryStore } from '../../src/lib/store.js';
import { t0 } from '../support/builders.js';
import { ManualClock } from '../support/manual-clock.js';

const intervalMs = 60_000;
const boundMs = 120_000;
const slackChannel = (id: string): ChannelRef => ({ platform: 'slack', workspaceId: 'T1', channelId: id });

/**
 * A quiet Slack workspace as the doubt resolver sees it: posts land late by up to 90 s, the clock margin is 5 s,
 * one look a minute per workspace (a look the platform would refuse fails the test), each look reads its whole
 * span and shows the keys that landed in it.
 */
function quietWorkspace(clock: ManualClock, landed: ReadonlyMap<string, number>) {
  const looks: { channel: string; at: number }[] = [];
  const poster: ChannelPoster = {
    platform: 'slack',
    post: async () => ({ messageId: 'unused' }),
    doubt: {
      settleMs: 15_000,
      clockMarginMs: 5_000,
      repeatSafeMs: 0,
      lateLandingMs: 90_000,
      newestFirstPageSize: 15,
      lookBudget: () => ({ scope: 'slack:T1:history', intervalMs }),
      async look(channel, request): Promise<LookPage> {
        const last = looks.at(-1);
        if (last && clock.now() < last.at + intervalMs) throw new Error('a look Slack would refuse (429)');
        looks.push({ channel: channel.channelId, at: clock.now() });
        const found = new Map<string, string>();
        for (const { key } of request.wanted) {
          const at = landed.get(key);
          if (at !== undefined && at >= request.from && at <= Math.min(request.to, clock.now()))
            found.set(key, `ts-${at}`);
        }
        return { found, covered: { from: request.from, to: request.to }, shown: found.size };
      },
    },
  };
  return { poster, looks };
}

interface Pending {
  readonly resolver: DoubtResolver;
  readonly channel: ChannelRef;
  readonly key: string;
  readonly startedAt: number;
  dueAt: number;
}

/** Decides each doubt again when its wait ends, in time order, until all are decided: when and how each was. */
async function runLanes(clock: ManualClock, poster: ChannelPoster, pending: Pending[]) {
  const decided = new Map<string, { at: number; kind: string }>();
  while (pending.length > 0) {
    pending.sort((a, b) => a.dueAt - b.dueAt);
    const next = pending[0] as Pending;
    if (next.dueAt > clock.now()) clock.set(next.dueAt);
    const doubt = { key: next.key, startedAt: next.startedAt, message: { text: next.key } };
    const decision = (await next.resolver.decide(poster, next.channel, undefined, [doubt])).get(next.key);
    if (decision?.kind === 'wait') {
      expect(decision.until).toBeGreaterThan(clock.now());
      next.dueAt = decision.until;
    } else {
      decided.set(next.key, { at: clock.now() - next.startedAt, kind: decision?.kind ?? 'none' });
      pending.shift();
    }
  }
  return decided;
}

describe('the look timing rule', () => {
  it('looks early only while the deciding look still fits an interval later, and only once', () => {
    const deciding = t0 + 95_000;
    const at = (now: number, receivedRead = false, sweeping = false) =>
      lookTiming({ now, intervalMs, decidesFrom: deciding, receivedRead, sweeping });
    expect(at(t0 + 20_000)).toEqual({ kind: 'early' });
    expect(at(t0 + 35_000)).toEqual({ kind: 'early' });
    expect(at(t0 + 35_001)).toEqual({ kind: 'wait', until: deciding });
    expect(at(t0 + 20_000, true)).toEqual({ kind: 'wait', until: deciding });
    expect(at(deciding)).toEqual({ kind: 'deciding' });
    // A busy channel's unfinished sweep goes on at once: the deciding look would have to read its pages too.
    expect(at(t0 + 80_000, true, true)).toEqual({ kind: 'early' });
  });
});

describe('Slack doubts without message events: decided within 120 s by the look timing', () => {
  it('a doubt first looked at 50 s after its attempt waits for its deciding look: one look proves it absent', async () => {
    const clock = new ManualClock(t0 + 50_000);
    const resolver = createDoubtResolver({ store: memoryStore(), claims: memoryClaims(clock, 'a'), clock });
    const { poster, looks } = quietWorkspace(clock, new Map());
    const decided = await runLanes(clock, poster, [
      { resolver, channel: slackChannel('C1'), key: 'lost@C1', startedAt: t0, dueAt: clock.now() },
    ]);
    // A look at +50 s could only find a post that landed at once, and would hold the budget until +111 s.
    expect(looks.map((l) => l.at - t0)).toEqual([95_000]);
    expect(decided.get('lost@C1')).toEqual({ at: 95_000, kind: 'absent' });
  });

  it('an early look in time finds a post that landed at once; one that did not waits for the deciding look', async () => {
    const clock = new ManualClock(t0 + 20_000);
    const resolver = createDoubtResolver({ store: memoryStore(), claims: memoryClaims(clock, 'a'), clock });
    const landed = quietWorkspace(clock, new Map([['landed@C1', t0 + 300]]));
    const found = await runLanes(clock, landed.poster, [
      { resolver, channel: slackChannel('C1'), key: 'landed@C1', startedAt: t0, dueAt: clock.now() },
    ]);
    expect(found.get('landed@C1')).toEqual({ at: 20_000, kind: 'posted' });

    const later = new ManualClock(t0 + 20_000);
    const other = createDoubtResolver({
      store: memoryStore(),
      claims: memoryClaims(later, 'a'),
      clock: later,
    });
    const lost = quietWorkspace(later, new Map());
    const absent = await runLanes(later, lost.poster, [
      { resolver: other, channel: slackChannel('C1'), key: 'lost@C1', startedAt: t0, dueAt: later.now() },
    ]);
    expect(lost.looks.map((l) => l.at - t0)).toEqual([20_000, 95_000]);
    expect(absent.get('lost@C1')).toEqual({ at: 95_000, kind: 'absent' });
  });

  it("another replica's channel does not spend the minute a deciding look needs", async () => {
    const clock = new ManualClock(t0 + 20_000);
    const store = memoryStore();
    const claims = new Map();
    const a = createDoubtResolver({ store, claims: memoryClaims(clock, 'a', claims), clock });
    const b = createDoubtResolver({ store, claims: memoryClaims(clock, 'b', claims), clock });
    const { poster, looks } = quietWorkspace(clock, new Map());
    // C1's early look at +20 s finds nothing; C2's doubt begins at +50 s, and at +81 s (the budget free again)
    // an early look would fit its own deciding look (+145 s) but push C1's (+95 s) to +142 s.
    const decided = await runLanes(clock, poster, [
      { resolver: a, channel: slackChannel('C1'), key: 'lost@C1', startedAt: t0, dueAt: t0 + 20_000 },
      {
        resolver: b,
        channel: slackChannel('C2'),
        key: 'lost@C2',
        startedAt: t0 + 50_000,
        dueAt: t0 + 81_000,
      },
    ]);
    expect(looks.map((l) => `${l.channel}+${(l.at - t0) / 1000}`)).toEqual(['C1+20', 'C1+95', 'C2+156']);
    expect(decided.get('lost@C1')).toEqual({ at: 95_000, kind: 'absent' });
    expect(decided.get('lost@C2')).toEqual({ at: 106_000, kind: 'absent' });
    for (const { at } of decided.values()) expect(at).toBeLessThanOrEqual(boundMs);
  });
});
