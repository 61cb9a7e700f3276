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
import { createWitness } from '../../src/delivery/witness.js';
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
async function runLanes(
  clock: ManualClock,
  poster: ChannelPoster,
  pending: Pending[],
  /** Told of each doubt decided absent (its repost); true: every lane wakes (an event of the workspace came). */
  reposted?: (p: Pending) => boolean,
) {
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
      if (decision?.kind === 'absent' && reposted?.(next)) for (const p of pending) p.dueAt = clock.now();
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

describe("Slack doubts a dead process left in two channels: this process's event stream speaks for the rest", () => {
  /**
   * Seed 39's class: C1's post at +0 s and C2's at +5 s were left in doubt (no answer, no event) by a process
   * that died; this one connected its Socket Mode stream at +31.8 s, after both. Alone, each channel's absence
   * needs a look 95 s after its attempt, a minute apart: the second past 120 s. A look at C1 past the stream's
   * start plus the margin (+36.8 s), then C2's deciding look, whose repost's event on the same connection proves
   * the stream: C1 is then decided by the early look and the stream, with no second look in its late window.
   */
  async function twoChannels(options: {
    readonly repostSeen: boolean;
    readonly alone?: boolean;
    /** When C2's lane first asks (default: at once). */
    readonly c2AsksAt?: number;
  }) {
    const clock = new ManualClock(t0 + 31_800);
    const store = memoryStore();
    const witness = createWitness({ store, clock });
    witness.connected('slack');
    const resolver = createDoubtResolver({
      store,
      claims: memoryClaims(clock, 'a'),
      clock,
      witness,
      postingReplicas: () => (options.alone === false ? 2 : 1),
    });
    const { poster, looks } = quietWorkspace(clock, new Map());
    const lane = (id: string, startedAt: number, dueAt = clock.now()): Pending => ({
      resolver,
      channel: slackChannel(id),
      key: `lost@${id}`,
      startedAt,
      dueAt,
    });
    // The repost lands 200 ms after the decision; its event comes half a second later.
    const reposted = (p: Pending) => {
      if (!options.repostSeen) return false;
      clock.set(clock.now() + 700);
      witness.note({ channel: p.channel, key: `${p.key}#2`, messageId: 'repost', at: clock.now() - 500 });
      return true;
    };
    const decided = await runLanes(
      clock,
      poster,
      [lane('C1', t0), lane('C2', t0 + 5_000, options.c2AsksAt)],
      reposted,
    );
    return { decided, looks: looks.map((l) => `${l.channel}+${(l.at - t0) / 1000}`) };
  }

  it('both are decided absent within 120 s: the second channel without a look in its late window', async () => {
    const { decided, looks } = await twoChannels({ repostSeen: true });
    // A stream read at +36.8 s (the stream's start plus the 5 s margin; C2's lane asked first), then C1's
    // deciding look when the budget frees (2.8 s past its due, which the stream read may push by up to 10 s).
    // C1's repost's event on the same connection proves the stream: C2 is decided by its read and the stream.
    expect(looks).toEqual(['C2+36.8', 'C1+97.8']);
    expect(decided.get('lost@C1')).toEqual({ at: 97_800, kind: 'absent' });
    expect(decided.get('lost@C2')).toEqual({ at: 93_500, kind: 'absent' });
    for (const { at } of decided.values()) expect(at).toBeLessThanOrEqual(boundMs);
  });

  it('the channel that made the stream read gives its deciding look to the other, whose repost proves the stream', async () => {
    const { decided, looks } = await twoChannels({ repostSeen: true, c2AsksAt: t0 + 36_900 });
    // C1 reads at +36.8 s; at +96.8 s its deciding look would leave C2 none before +156.8 s: C2 looks first.
    expect(looks).toEqual(['C1+36.8', 'C2+100']);
    expect(decided.get('lost@C2')).toEqual({ at: 95_000, kind: 'absent' });
    expect(decided.get('lost@C1')).toEqual({ at: 100_700, kind: 'absent' });
  });

  it('without an event on the connection nothing is concluded from the stream: C1 waits for its own deciding look', async () => {
    const { decided, looks } = await twoChannels({ repostSeen: false });
    expect(looks).toEqual(['C2+36.8', 'C1+97.8', 'C2+158.8']);
    expect(decided.get('lost@C2')).toEqual({ at: 153_800, kind: 'absent' });
  });

  it('a copy landing late, after the stream read, is sighted: decided posted, never posted twice', async () => {
    const clock = new ManualClock(t0 + 31_800);
    const store = memoryStore();
    const witness = createWitness({ store, clock });
    witness.connected('slack');
    const resolver = createDoubtResolver({ store, claims: memoryClaims(clock, 'a'), clock, witness });
    const { poster } = quietWorkspace(clock, new Map());
    const channel = slackChannel('C1');
    const doubt = { key: 'late@C1', startedAt: t0, message: { text: 'late' } };
    const first = (await resolver.decide(poster, channel, undefined, [doubt])).get(doubt.key);
    expect(first).toEqual({ kind: 'wait', until: t0 + 36_800 });
    clock.set(t0 + 36_800);
    expect((await resolver.decide(poster, channel, undefined, [doubt])).get(doubt.key)?.kind).toBe('wait');
    // The copy lands at +80 s (after the read, inside the late window); its event reaches this stream.
    clock.set(t0 + 80_700);
    witness.note({ channel, key: doubt.key, messageId: 'late-copy', at: t0 + 80_000 });
    expect((await resolver.decide(poster, channel, undefined, [doubt])).get(doubt.key)).toEqual({
      kind: 'posted',
      messageId: 'late-copy',
      others: [],
      by: 'sighting',
    });
  });

  it('in a fleet no stream read is planned: Slack may hand the events to another replica', async () => {
    const { decided, looks } = await twoChannels({ repostSeen: true, alone: false });
    // As before the rule (and on the old code, alone too): an early look at once, then a deciding look each,
    // a minute apart; the second channel past the bound.
    expect(looks).toEqual(['C1+31.8', 'C1+95', 'C2+156']);
    expect(decided.get('lost@C2')).toEqual({ at: 151_000, kind: 'absent' });
  });
});
