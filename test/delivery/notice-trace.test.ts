/**
 * The delivery trace (issue 32, item 2) on the real pipeline and core, on a virtual clock: /notices and /why
 * read what the ledger, the batches and the trace say, with no platform request; what the trace costs the store.
 */
import { describe, expect, it } from 'vitest';
import type { NeutralMessage } from '../../src/core/message.js';
import { messageUrl } from '../../src/core/message-url.js';
import type { ChannelRef } from '../../src/core/ports.js';
import { type KeyValueStore, memoryStore } from '../../src/lib/store.js';
import { t0 } from '../support/builders.js';
import { allText, allUrls } from '../support/core-fixture.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { type PipelineHarness, startPipeline } from './pipeline-harness.js';
import { ScriptedPoster } from './scripted-poster.js';
import { supportDroppedOf } from './support-dropped.js';

const s1: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'S1' };
const d1: ChannelRef = { platform: 'discord', workspaceId: '100', channelId: '200' };
const fan = (n: number, name = `Fan ${n}`) =>
  buildEvent.supporter({ id: `solar-kiosk:supporter:k${n}`, displayName: name, detectedAt: t0 });

async function setup(store: KeyValueStore = memoryStore()) {
  const clock = new ManualClock(t0);
  const slack = new ScriptedPoster('slack', clock, { settleMs: 15_000, lookIntervalMs: 60_000 });
  const discord = new ScriptedPoster('discord', clock);
  const h = await startPipeline({ posters: [slack, discord], clock, store });
  for (const channel of [s1, d1]) {
    await h.subscribe(channel, ['supporters', 'wall']);
    await h.pacing.setKind(channel, 'supporters', { mode: 'live' });
  }
  return { ...h, slack, discord };
}

const ask = (h: PipelineHarness, channel: ChannelRef, name: string, options: Record<string, string> = {}) =>
  h.core.execute({
    name,
    options,
    context: { user: { id: 'U1', displayName: 'Member' }, channel, canAdminister: false },
  });

/** The field of the notice whose title names `label`. */
function lineOf(message: NeutralMessage, label: string): string {
  const field = message.fields?.find((f) => f.name.includes(label));
  if (!field) throw new Error(`no line for ${label} in:\n${allText(message)}`);
  return `${field.name} → ${field.value}`;
}

describe('/notices: the last notices of this channel and where each stands', () => {
  it('a post whose answer has not come yet is sent and waiting for it, not in doubt; then posted', async () => {
    const h = await setup();
    h.slack.fail('S1', { kind: 'hang' });
    await h.delivery.sink.offer('solar-kiosk', [fan(1)]);
    await h.slack.untilHung();
    let answer = await ask(h, s1, 'notices');
    expect(lineOf(answer, '1.')).toMatch(/sent 00:00 UTC, waiting for the platform's answer/);
    expect(allText(answer)).not.toContain('in doubt');
    h.slack.release();
    await h.settle();
    answer = await ask(h, s1, 'notices');
    expect(lineOf(answer, 'Fan 1')).toMatch(/posted 00:00 UTC/);
  });

  it('posted with a link, in doubt then found, held by pacing until its batch, then posted in the batch', async () => {
    const h = await setup();
    // Fan 1 lands but its answer is lost: in doubt until a look finds it.
    h.slack.fail('S1', { kind: 'lost-answer' });
    await h.offer(fan(1), fan(2));
    let answer = await ask(h, s1, 'notices');
    expect(answer.private).toBe(true);
    // Not known to be in the channel: its name waits until it is.
    expect(lineOf(answer, '2.')).toMatch(/Supporter \(names shown once posted\).*in doubt since 00:00 UTC/s);
    expect(lineOf(answer, '1.')).toMatch(/Supporter: Fan 2.*posted 00:00 UTC/s);
    await h.advance(20_000);
    answer = await ask(h, s1, 'notices');
    expect(lineOf(answer, 'Fan 1')).toMatch(
      /posted 00:00 UTC\nin doubt from 00:00 UTC, then found in the channel/,
    );
    expect(h.slack.looks).toHaveLength(1);

    // Pacing: batched every 10 minutes from now on.
    await h.pacing.setKind(s1, 'supporters', { mode: 'batched', intervalMs: 10 * 60_000 });
    await h.offer(fan(3));
    answer = await ask(h, s1, 'notices');
    const held = lineOf(answer, 'Supporter (names shown once posted)');
    expect(held).toContain("held by this channel's pacing until 00:10 UTC");
    expect(allText(answer)).not.toContain('Fan 3');
    await h.advance(11 * 60_000);
    answer = await ask(h, s1, 'notices');
    expect(lineOf(answer, 'Fan 3')).toContain('posted in a batch message 00:10 UTC');
  });

  it('a channel fundbot cannot post in: "cannot post since", for held notices and later ones', async () => {
    const h = await setup();
    h.slack.fail('S1', { kind: 'unavailable', reason: 'not-member' });
    await h.offer(fan(1));
    await h.advance(5_000);
    await h.offer(fan(2));
    const answer = await ask(h, s1, 'notices');
    expect(answer.fields).toHaveLength(2);
    for (const field of answer.fields ?? [])
      expect(field.value).toContain('fundbot cannot post in this channel since 00:00 UTC');
    expect(allUrls(answer)).toEqual([]);
  });

  it('a correction is shown; German in a German channel', async () => {
    const h = await setup();
    await h.settings.setLocale(d1, 'channel', 'de');
    await h.offer(fan(1));
    const dropped = supportDroppedOf(fan(1), 'k1', t0);
    await h.advance(60_000);
    await h.offer(dropped);
    const answer = await ask(h, d1, 'notices');
    expect(answer.title).toBe('Letzte Hinweise in diesem Kanal');
    expect(lineOf(answer, 'Fan 1')).toMatch(/gepostet 00:00 UTC\nkorrigiert 00:01 UTC/);
  });

  it('nothing traced yet: says so; no platform request for any of it', async () => {
    const h = await setup();
    const answer = await ask(h, s1, 'notices');
    expect(answer.text).toContain('No notices traced in this channel yet');
    expect(h.slack.attempts).toHaveLength(0);
    expect(h.slack.looks).toHaveLength(0);
  });
});

describe('links to posted messages: built from the platform ids only', () => {
  it('Discord channel and thread messages, Slack archive permalinks; nothing for other forms', () => {
    expect(messageUrl(d1, '300')).toBe('https://discord.com/channels/100/200/300');
    expect(messageUrl(d1, '400/500')).toBe('https://discord.com/channels/100/400/500');
    expect(messageUrl(d1, 'm1')).toBeUndefined();
    expect(messageUrl(s1, '1767225600.000200')).toBe('https://slack.com/archives/S1/p1767225600000200');
    expect(messageUrl(s1, '1767225600.0002<!channel>')).toBeUndefined();
    expect(
      messageUrl({ platform: 'console', workspaceId: 'console', channelId: 'x' }, '1.2'),
    ).toBeUndefined();
  });
});

describe('/why <name>: one supporter in this channel', () => {
  it('which notice, when it happened and was seen, what came of it; exact names only, user text plain', async () => {
    const h = await setup();
    await h.offer(fan(1, 'Grace H.'), buildEvent.wallPost({ author: 'Grace H.' }));
    const answer = await ask(h, s1, 'why', { name: 'grace h.' });
    expect(answer.title).toBe('What happened to grace h.');
    expect(answer.text).toBe('Supporter (solar-kiosk): happened 23:59 UTC, seen 00:00 UTC; posted 00:00 UTC');
    const none = await ask(h, s1, 'why', { name: 'Grace <!channel>' });
    expect(none.text).toContain('No notice of this channel\'s last 36 names "Grace <!channel>"');
    expect(none.text).toContain('/fundbot notices');
    const empty = await ask(h, s1, 'why', { name: '  ' });
    expect(empty.tone).toBe('error');
  });
});

describe('the trace in the store', () => {
  it('keeps the last notices in a ring (36 at least), a notice offered again once; about 700 bytes written per notice', async () => {
    const store = memoryStore();
    let traceBytes = 0;
    const counting: KeyValueStore = new Proxy(store, {
      get(target, property, receiver) {
        if (property === 'set')
          return (key: string, value: unknown, ttl?: number) => {
            if (key.includes('/trace/')) traceBytes += JSON.stringify(value).length + key.length;
            return target.set(key, value, ttl);
          };
        const found = Reflect.get(target, property, receiver);
        return typeof found === 'function' ? found.bind(target) : found;
      },
    });
    const h = await setup(counting);
    const fans = Array.from({ length: 60 }, (_, i) => fan(i + 1));
    // One notice at a time, each written on its own: the most the trace costs per notice.
    for (const f of fans) await h.offer(f);
    await h.offer(fans[59]!);
    const perNotice = traceBytes / 60 / 2; // two channels
    expect(perNotice).toBeGreaterThan(300);
    expect(perNotice).toBeLessThan(800);
    const why = await ask(h, s1, 'why', { name: 'Fan 25' });
    expect(why.text).toContain('posted');
    const gone = await ask(h, s1, 'why', { name: 'Fan 20' });
    expect(gone.text).toContain('No notice');
    const answer = await ask(h, s1, 'notices');
    expect(answer.fields?.map((f) => f.name.replace(/^\d+\. \S+ UTC · Supporter: /, ''))).toEqual(
      fans
        .slice(40)
        .reverse()
        .map((f) => f.displayName),
    );
  });
});
