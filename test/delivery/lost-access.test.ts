import { describe, expect, it } from 'vitest';
import type { ChannelAccessResult, ChannelRef } from '../../src/core/ports.js';
import { heldWriteGatherMs } from '../../src/delivery/create-delivery.js';
import { memoryClaims } from '../../src/lib/coordination/claims.js';
import { memoryStore } from '../../src/lib/store.js';
import { t0 } from '../support/builders.js';
import { allText } from '../support/core-fixture.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { runFor, startPipeline } from './pipeline-harness.js';
import { ScriptedPoster } from './scripted-poster.js';

const s1: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'S1' };
const s2: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'S2' };
const supporter = (n: number) => buildEvent.supporter({ id: `s${n}`, displayName: `Fan ${n}` });

/** The platform's answer to "can the bot post there?", as the adapter's ChannelAccess gives it. */
function accessSwitch(initial: ChannelAccessResult = { ok: false, reason: 'not-member' }) {
  let result = initial;
  const checks: string[] = [];
  return {
    access: {
      async canPost(channel: ChannelRef) {
        checks.push(channel.channelId);
        return result;
      },
    },
    set: (next: ChannelAccessResult) => {
      result = next;
    },
    checks,
  };
}

async function setup(clock = new ManualClock(t0), store = memoryStore(), owner = 'a', table = new Map()) {
  const slack = new ScriptedPoster('slack', clock);
  const check = accessSwitch();
  const h = await startPipeline({
    posters: [slack],
    clock,
    store,
    access: { slack: check.access },
    claims: memoryClaims(clock, owner, table),
  });
  for (const channel of [s1, s2]) {
    await h.subscribe(channel, ['supporters', 'wall']);
    await h.pacing.setKind(channel, 'supporters', { mode: 'live' });
  }
  return { ...h, slack, check };
}

describe('a channel the bot cannot post in is held, never dropped', () => {
  it('not_in_channel marks the channel, holds its notices (every name), and posts them as one catch-up when access returns', async () => {
    const h = await setup();
    h.slack.fail('S1', { kind: 'unavailable', reason: 'not-member' });
    expect(await h.offer(supporter(1), supporter(2))).toEqual([]);
    // Held for the catch-up: once their batch is stored (a few seconds later) the outbox may forget them.
    await h.advance(5_000);
    expect(await h.offer(supporter(1), supporter(2))).toEqual(['s1', 's2']);
    expect(h.slack.in('S2')).toHaveLength(2);
    expect(h.slack.in('S1')).toHaveLength(0);
    expect(await h.access.get(s1)).toMatchObject({ reason: 'not-member', since: t0 });
    expect(h.delivery.status().cannotPost).toEqual([
      { channel: 'slack:T1:S1', reason: 'not-member', since: t0 },
    ]);
    const errors = h.logger.records.filter((r) => r.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain('invite it');
    // Later notices are held without another attempt at the channel.
    await h.offer(supporter(3), buildEvent.wallPost());
    expect(h.slack.attempts.filter((a) => a.channel.channelId === 'S1')).toHaveLength(1);

    // The first re-check (30 s, spread) still finds no access; then someone invites the bot.
    await h.advance(40_000);
    expect(h.check.checks).toEqual(['S1']);
    h.check.set({ ok: true });
    await h.advance(2 * 60_000);
    const catchUp = h.slack.in('S1');
    expect(catchUp.map((m) => m.message.title)).toEqual([
      expect.stringContaining('3 new supporters since'),
      expect.stringContaining('1 new wall post since'),
    ]);
    expect(allText(catchUp[0]!.message)).toContain('Held while fundbot could not post in this channel');
    for (const name of ['Fan 1', 'Fan 2', 'Fan 3']) expect(allText(catchUp[0]!.message)).toContain(name);
    expect(await h.access.get(s1)).toBeUndefined();
    expect(h.delivery.status().cannotPost).toEqual([]);
    // Access is back: the next notice goes live again.
    await h.offer(supporter(4));
    expect(h.slack.in('S1').at(-1)!.message.title).toBe('🎉 New supporter: Fan 4');
  });

  it('a platform event (the bot joined the channel) re-checks at once instead of waiting for the timer', async () => {
    const h = await setup();
    h.slack.fail('S1', { kind: 'unavailable', reason: 'not-member' });
    await h.offer(supporter(1));
    h.check.set({ ok: true });
    h.delivery.accessMayHaveChanged(s1);
    // At once, but never before its batch is in the store (held notices gather for one write, a few seconds).
    await h.advance(heldWriteGatherMs);
    expect(h.slack.in('S1').map((m) => m.message.title)).toEqual([
      expect.stringContaining('1 new supporter since'),
    ]);
  });

  it('a held channel survives a restart: the new process holds its notices and re-checks it', async () => {
    const clock = new ManualClock(t0);
    const store = memoryStore();
    const first = await setup(clock, store);
    first.slack.fail('S1', { kind: 'unavailable', reason: 'archived' });
    await first.offer(supporter(1));
    await first.stop();
    const second = await setup(clock, store);
    await second.offer(supporter(2));
    expect(second.slack.attempts.filter((a) => a.channel.channelId === 'S1')).toHaveLength(0);
    second.check.set({ ok: true });
    await second.advance(60_000);
    expect(second.slack.in('S1').map((m) => m.message.title)).toEqual([
      expect.stringContaining('2 new supporters since'),
    ]);
  });

  it('on replicas one re-check serves all: a replica that did not ask sees the channel back through the store', async () => {
    const clock = new ManualClock(t0);
    const store = memoryStore();
    const table = new Map();
    const a = await setup(clock, store, 'a', table);
    a.slack.fail('S1', { kind: 'unavailable', reason: 'not-member' });
    await a.offer(supporter(1));
    // Replica b holds its notice for S1 from the state a stored, without trying the channel itself.
    const b = await setup(clock, store, 'b', table);
    await b.offer(buildEvent.wallPost({ project: 'solar-kiosk' }));
    a.check.set({ ok: true });
    b.check.set({ ok: true });
    await a.advance(60_000);
    // A replica whose re-check found another one asking looks at the store again 5 s later.
    await b.advance(5_000);
    expect(b.slack.attempts.filter((x) => x.channel.channelId === 'S1')).toHaveLength(1);
    // One platform check in the fleet per interval; both replicas' held notices went out.
    expect(a.check.checks.length + b.check.checks.length).toBeLessThanOrEqual(2);
    expect(a.slack.in('S1').map((m) => m.message.title)).toEqual([
      expect.stringContaining('1 new supporter since'),
    ]);
    expect(b.slack.in('S1').map((m) => m.message.title)).toEqual([
      expect.stringContaining('1 new wall post since'),
    ]);
  });

  it('a notice held after its catch-up went out (another replica still read the channel closed) goes out in the next one', async () => {
    // Chaos seed 179: the replica that found the channel closed paused; another took the project over, posted the
    // open catch-up (the channel was not known closed to it), then held a later notice from the stored state. The
    // held notice's batch took the posted catch-up's id (both opened at the stored `since`), and the next catch-up
    // found that id already posted: the notice was never named.
    const clock = new ManualClock(t0);
    const store = memoryStore();
    const table = new Map();
    const a = await setup(clock, store, 'a', table);
    const b = await setup(clock, store, 'b', table);
    a.slack.fail('S1', { kind: 'unavailable', reason: 'not-member' });
    await a.offer(supporter(1));
    await a.advance(heldWriteGatherMs);
    b.check.set({ ok: true });
    // b loads the project: the open catch-up goes out.
    await b.offer(supporter(1));
    await b.advance(heldWriteGatherMs);
    expect(b.slack.in('S1').map((m) => m.message.title)).toEqual([
      expect.stringContaining('1 new supporter since'),
    ]);
    // The store still says closed (a never re-checked): b holds the next notice and re-checks the channel itself.
    await b.offer(supporter(2));
    await b.advance(2 * 60_000);
    const texts = b.slack.in('S1').map((m) => allText(m.message));
    expect(texts).toHaveLength(2);
    expect(texts[1]).toContain('Fan 2');
    expect(texts[1]).not.toContain('Fan 1');
  });

  it("a day's digest refused there goes out the moment the bot can post again, not at the next hourly check", async () => {
    const h = await setup();
    h.slack.fail('S1', { kind: 'unavailable', reason: 'not-member' });
    const outcomes: string[] = [];
    void h.delivery
      .postScheduled({
        id: 'digest:solar-kiosk:2026-03-02',
        channel: s1,
        kind: 'digest',
        occurredAt: t0,
        giveUpAt: t0 + 24 * 3_600_000,
        render: async () => ({ title: 'Daily digest', text: 'the day' }),
      })
      .then((outcome) => outcomes.push(outcome.kind));
    await h.advance(1_000);
    // Held (the scheduler reports it pending), not refused.
    expect(outcomes).toEqual(['held']);
    expect(h.slack.in('S1')).toHaveLength(0);
    await h.advance(40_000);
    h.check.set({ ok: true });
    await h.advance(60_000);
    expect(h.slack.in('S1').map((m) => m.message.title)).toEqual(['Daily digest']);
    expect(h.slack.attempts.filter((a) => a.channel.channelId === 'S1')).toHaveLength(2);
  });
});

describe('a doubt an earlier process left in a channel the bot cannot post in', () => {
  it('is looked for while the channel stays closed: a notice that landed is not named again by the catch-up', async () => {
    // Before: a lane that knew the channel closed held the notice left `attempting` without a look, and the
    // catch-up named a supporter whose notice had landed (and the doubt waited for access, not for a look).
    const clock = new ManualClock(t0);
    const store = memoryStore();
    const first = await setup(clock, store);
    // Fan 1's notice lands but its answer never comes; Fan 2's post then finds the channel archived.
    first.slack.fail('S1', { kind: 'land-and-hang' }, { kind: 'unavailable', reason: 'archived' });
    void first.delivery.sink.offer('solar-kiosk', [supporter(1), supporter(2)]);
    await first.slack.untilHung();
    // The lane goes on past the hung post after its stall time (10 s).
    await first.advance(12_000);
    expect(first.slack.in('S1')).toHaveLength(1);
    await first.stop();
    const resolved: { id: string; outcome: string; doubtMs: number }[] = [];
    const second = await startPipeline({
      posters: [first.slack],
      clock,
      store,
      access: { slack: first.check.access },
      observer: { doubtResolved: (e) => resolved.push({ id: e.id, outcome: e.outcome, doubtMs: e.doubtMs }) },
    });
    // The outbox offers Fan 1 again: the new process knows the channel is closed (the store says so).
    await second.offer(supporter(1), supporter(2));
    await second.advance(60_000);
    // Still closed: the doubt was decided by a look, not once access returned.
    expect(await second.access.get(s1)).toBeDefined();
    expect(resolved).toEqual([{ id: 's1', outcome: 'found', doubtMs: expect.any(Number) }]);
    expect(resolved[0]!.doubtMs).toBeLessThanOrEqual(120_000);
    first.check.set({ ok: true });
    await second.advance(60_000);
    const texts = first.slack.in('S1').map((m) => allText(m.message));
    expect(texts.filter((t) => t.includes('Fan 1'))).toHaveLength(1);
    expect(texts.filter((t) => t.includes('Fan 2'))).toHaveLength(1);
  });

  it('a catch-up left in doubt by a replica that died is looked for by the one that takes the project over', async () => {
    // Chaos seed 120: replica b, not knowing the channel was archived, posted the open catch-up and died before
    // any answer; replica a, which knew the channel closed, took the project back and only armed catch-ups for
    // the access's return: the doubt waited for it (132.6 s) instead of a look.
    const clock = new ManualClock(t0);
    const store = memoryStore();
    const table = new Map();
    const a = await setup(clock, store, 'a', table);
    const b = await setup(clock, store, 'b', table);
    a.slack.fail('S1', { kind: 'unavailable', reason: 'archived' });
    await a.offer(supporter(1));
    await a.advance(heldWriteGatherMs);
    b.slack.fail('S1', { kind: 'hang' });
    // b loads the project and posts the catch-up; the answer never comes, and b dies.
    void b.delivery.sink.offer('solar-kiosk', []);
    await b.slack.untilHung();
    const attemptAt = clock.now();
    await b.stop();
    await a.delivery.sink.offer('solar-kiosk', [], true);
    // The look finds nothing, and the repeat finds the channel still archived: held for the catch-up again.
    a.slack.fail('S1', { kind: 'unavailable', reason: 'archived' });
    await runFor(a, 100_000, 5_000);
    expect(a.slack.looks).toHaveLength(1);
    const repeat = a.slack.attempts.filter((x) => x.channel.channelId === 'S1').at(-1)!;
    expect(repeat.at - attemptAt).toBeLessThanOrEqual(100_000);
    expect(await a.access.get(s1)).toBeDefined();
    a.check.set({ ok: true });
    await a.advance(60_000);
    expect(a.slack.in('S1').map((m) => allText(m.message).includes('Fan 1'))).toEqual([true]);
  });
});
