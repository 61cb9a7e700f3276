import { describe, expect, test } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { type KeyValueStore, memoryStore } from '../../src/lib/store.js';
import { t0 } from '../support/builders.js';
import { allText } from '../support/core-fixture.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { startPipeline } from './pipeline-harness.js';
import { ScriptedPoster } from './scripted-poster.js';
import { supportDroppedOf } from './support-dropped.js';

const d1: ChannelRef = { platform: 'discord', workspaceId: 'G1', channelId: 'D1' };
const s1: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'S1' };
const minute = 60_000;

async function setup(store: KeyValueStore = memoryStore(), clock = new ManualClock(t0)) {
  const discord = new ScriptedPoster('discord', clock);
  const slack = new ScriptedPoster('slack', clock);
  const h = await startPipeline({ posters: [discord, slack], clock, store });
  return { ...h, discord, slack };
}

/**
 * A first process with `channel` subscribed to supporters in batches; `restart` starts the next one over its
 * store, on its clock unless given another.
 */
async function batchedIn(channel: ChannelRef, clock = new ManualClock(t0)) {
  const store = memoryStore();
  const first = await setup(store, clock);
  await first.subscribe(channel, ['supporters']);
  await first.pacing.setKind(channel, 'supporters', { mode: 'batched' });
  return { first, restart: (on = clock) => setup(store, on) };
}

const supporter = (n: number, total = 10_000 + n * 10) =>
  buildEvent.supporter({
    id: `solar-kiosk:supporter:k${n}`,
    displayName: `Fan ${n}`,
    fundingTotal: total,
    supporterCount: 100 + n,
  });

describe('pacing', () => {
  test('auto (default for supporters): live while the channel is quiet, then one batch per window with every name', async () => {
    const h = await setup();
    await h.subscribe(d1, ['supporters']);
    for (let n = 1; n <= 4; n += 1) {
      await h.offer(supporter(n));
      await h.advance(minute);
    }
    expect(h.discord.messages).toHaveLength(4);
    const held = Array.from({ length: 7 }, (_, i) => supporter(i + 5));
    for (const event of held) await h.offer(event);
    // Held: their batch is stored a few seconds later, one write for the seven; then the outbox may forget them.
    await h.advance(5_000);
    expect(await h.offer(...held)).toEqual(held.map((e) => e.id));
    expect(h.discord.messages).toHaveLength(4);
    await h.advance(10 * minute);
    expect(h.discord.messages).toHaveLength(5);
    const batch = allText(h.discord.messages[4]!.message);
    expect(h.discord.messages[4]!.message.title).toMatch(/^🎉 7 new supporters since /);
    for (let n = 5; n <= 11; n += 1) expect(batch).toContain(`Fan ${n}`);
    // Read with the newest held supporter, posted at the window's end: said with its time.
    expect(batch).toMatch(/as of .+: supporter count 111 · total €10,110 \(\+€70\)/);
    await h.advance(10 * minute);
    expect(h.discord.messages).toHaveLength(5);
  });

  test("auto: a channel busy for over an hour stays batched (its batches are the hour's messages), one per window", async () => {
    const h = await setup();
    await h.subscribe(d1, ['supporters']);
    // A supporter a minute for 100 minutes: the first 4 live, then only batches. Each batch
    // goes out at its window's end, before the next supporter: once the live four were an
    // hour old the channel went live again (4 more live messages an hour all day long).
    for (let n = 1; n <= 100; n += 1) {
      await h.offer(supporter(n));
      await h.advance(minute);
    }
    await h.advance(10 * minute);
    const titles = h.discord.messages.map((m) => m.message.title ?? '');
    const batches = titles.filter((t) => /new supporters since/.test(t));
    expect(titles.length - batches.length).toBe(4);
    expect(batches.length).toBeLessThanOrEqual(10);
    const named = h.discord.messages.map((m) => allText(m.message)).join('\n');
    for (let n = 1; n <= 100; n += 1) expect(named).toContain(`Fan ${n}`);
  });

  test("a batch whose notices carried no figures states the project's last read, with its time", async () => {
    const clock = new ManualClock(t0);
    const discord = new ScriptedPoster('discord', clock);
    const h = await startPipeline({
      posters: [discord],
      clock,
      overrides: {
        figuresOf: async () => ({ supporterCount: 57, fundingTotal: 6_400, readAt: t0 + 2 * minute }),
      },
    });
    await h.subscribe(d1, ['supporters']);
    await h.pacing.setKind(d1, 'supporters', { mode: 'batched' });
    // Their cycles did not re-read the project: no count or total on the events.
    for (const n of [1, 2])
      await h.offer(
        buildEvent.supporter({
          id: `solar-kiosk:supporter:n${n}`,
          displayName: `Fan ${n}`,
          supporterCount: null,
          fundingTotal: null,
        }),
      );
    await h.advance(10 * minute);
    expect(discord.messages).toHaveLength(1);
    expect(allText(discord.messages[0]!.message)).toMatch(
      /as of 00:02 UTC: supporter count 57 · total €6,400/,
    );
  });

  test('batched: one message per interval; a restart before the window ends neither loses nor repeats a name', async () => {
    const { first, restart } = await batchedIn(s1);
    await first.offer(supporter(1), supporter(2));
    await first.stop();
    const after = await restart();
    // The outbox offers again what it had not heard was done, then the next supporter.
    await after.offer(supporter(2));
    await after.offer(supporter(3));
    await after.advance(5 * minute);
    expect(after.slack.messages).toHaveLength(1);
    expect(after.slack.messages[0]!.message.title).toContain('3 new supporters');
  });

  test("a crash before held notices' batch was stored: the outbox still has them, each is named once", async () => {
    const { first, restart } = await batchedIn(s1);
    // Marked held in the ledger; the batch's write gathers a few seconds, so the outbox keeps them meanwhile.
    expect(await first.offer(supporter(1), supporter(2))).toEqual([]);
    // The process dies there (its clock never moves again); the next one offers them again.
    const after = await restart(new ManualClock(t0 + 1_000));
    const events = [supporter(1), supporter(2), supporter(3)];
    await after.offer(...events);
    await after.advance(5_000);
    expect(await after.offer(...events)).toEqual(events.map((e) => e.id));
    await after.advance(5 * minute);
    expect(after.slack.messages).toHaveLength(1);
    expect(after.slack.messages[0]!.message.title).toContain('3 new supporters');
    const text = allText(after.slack.messages[0]!.message);
    for (const n of [1, 2, 3]) expect(text.split(`Fan ${n}`)).toHaveLength(2);
  });

  test('a crash right after a batch was posted never puts a name into the next batch as well', async () => {
    const { first, restart } = await batchedIn(d1);
    await first.offer(supporter(1), supporter(2));
    await first.advance(5 * minute);
    expect(first.discord.messages).toHaveLength(1);
    await first.stop();
    // The outbox had not heard that supporter 2 was done: it offers it again after the restart.
    const after = await restart();
    await after.offer(supporter(2), supporter(3));
    await after.advance(5 * minute);
    expect(after.discord.messages.map((m) => m.message.title)).toEqual([
      expect.stringContaining('1 new supporter'),
    ]);
    expect(allText(after.discord.messages[0]!.message)).not.toContain('Fan 2');
  });

  test('digest only posts nothing; hourly waits for the hour', async () => {
    const h = await setup();
    await h.subscribe(d1, ['supporters', 'wall']);
    await h.pacing.setKind(d1, 'supporters', { mode: 'digest' });
    await h.pacing.setKind(d1, 'wall', { mode: 'hourly' });
    await h.offer(supporter(1));
    await h.offer(buildEvent.wallPost());
    await h.advance(30 * minute);
    expect(h.discord.messages).toHaveLength(0);
    await h.advance(31 * minute);
    expect(h.discord.messages.map((m) => m.message.title)).toEqual([
      expect.stringContaining('1 new wall post'),
    ]);
  });

  test('quiet hours hold everything and post one summary when they end', async () => {
    const h = await setup();
    await h.subscribe(d1, ['supporters']);
    const minuteOfDay = Math.floor((h.clock.now() % 86_400_000) / minute);
    await h.pacing.setQuiet(d1, { startMinute: minuteOfDay, endMinute: (minuteOfDay + 60) % 1440 });
    await h.pacing.setKind(d1, 'supporters', { mode: 'live' });
    for (let n = 1; n <= 3; n += 1) await h.offer(supporter(n));
    expect(h.discord.messages).toHaveLength(0);
    await h.advance(61 * minute);
    await h.offer(supporter(4));
    expect(h.discord.messages.map((m) => m.message.title)).toEqual([
      expect.stringContaining('3 new supporters'),
      '🎉 New supporter: Fan 4',
    ]);
    expect(allText(h.discord.messages[0]!.message)).toContain('Held during quiet hours');
  });
});

describe('every supporter named', () => {
  test('a batch with more names than one message holds lists the rest in its thread; count and names agree', async () => {
    const h = await setup();
    await h.subscribe(s1, ['supporters']);
    await h.pacing.setKind(s1, 'supporters', { mode: 'batched', intervalMs: 10 * minute });
    const names = Array.from({ length: 389 }, (_, i) => `Supporter number ${i + 1}`);
    for (const [i, name] of names.entries()) {
      await h.offer(
        buildEvent.supporter({ id: `s${i}`, displayName: name, supporterCount: null, fundingTotal: null }),
      );
    }
    await h.advance(10 * minute);
    const [main, ...rest] = h.slack.in('S1');
    expect(main!.message.title).toContain('389 new supporters');
    expect(allText(main!.message)).toMatch(/and \d+ more, all named in the thread/);
    // The rest are replies to the batch message, "continued (i of n)", in order.
    expect(rest.length).toBeGreaterThan(0);
    for (const reply of rest) expect(reply.thread?.parentMessageId).toBe(main!.id);
    const firstLine = (main!.message.text ?? '')
      .split('\n')[0]!
      .replace(/ and \d+ more, all named in the thread$/, '');
    const listed = [firstLine, ...rest.map((m) => m.message.text ?? '')].flatMap((line) => line.split(', '));
    expect(listed).toEqual(names);
  });
});

describe('corrections', () => {
  const dropped = (n: number) => supportDroppedOf(supporter(n), `k${n}`, t0);

  test('a dropped support edits the posted notice on both platforms, struck through, once, also after a restart', async () => {
    const store = memoryStore();
    const clock = new ManualClock(t0);
    const first = await setup(store, clock);
    for (const channel of [d1, s1]) {
      await first.subscribe(channel, ['supporters']);
      await first.pacing.setKind(channel, 'supporters', { mode: 'live' });
    }
    await first.settings.setLocale(s1, 'channel', 'de');
    await first.offer(supporter(1));
    await first.stop();
    const again = await setup(store, clock);
    await again.offer(dropped(1));
    await again.offer(dropped(1));
    expect(again.discord.edits).toHaveLength(1);
    expect(again.slack.edits).toHaveLength(1);
    expect(again.discord.edits[0]).toMatchObject({
      messageId: first.discord.messages[0]!.id,
      message: { struck: true },
    });
    expect(again.discord.edits[0]!.message.text).toContain('Withdrawn');
    expect(again.slack.edits[0]!.message.text).toContain('Zurückgezogen');
  });

  test('a drop while held leaves the batch; a drop after the batch posted edits the batch', async () => {
    const h = await setup();
    await h.subscribe(d1, ['supporters']);
    await h.pacing.setKind(d1, 'supporters', { mode: 'batched' });
    for (let n = 1; n <= 3; n += 1) await h.offer(supporter(n));
    await h.offer(dropped(2));
    await h.advance(5 * minute);
    expect(h.discord.messages[0]!.message.title).toContain('2 new supporters');
    expect(allText(h.discord.messages[0]!.message)).not.toContain('Fan 2');
    await h.offer(dropped(3));
    expect(h.discord.edits).toHaveLength(1);
    expect(h.discord.edits[0]!.message.title).toContain('1 new supporter');
    expect(h.discord.edits[0]!.message.text).toContain('Withdrawn since: Fan 3');
  });
});
