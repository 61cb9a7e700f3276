/**
 * A post in doubt in a channel busier than one look's page. The platform shows the
 * newest messages first (Slack: 15 a page, one call a minute), so the oldest part of
 * the span where an unanswered post may be, where a post the platform received lands,
 * would come only on a later page, a minute later. The resolver reads that part first
 * when the channel's pace (its own posts, times the replicas posting; a look's measure)
 * says the whole span does not fit one page.
 */
import { describe, expect, it } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { type PipelineOptions, runFor, startPipeline } from './pipeline-harness.js';
import { ScriptedPoster } from './scripted-poster.js';

const s1: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'S1' };
const supporters = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) =>
    buildEvent.supporter({ id: `s${from + i}`, displayName: `Supporter ${from + i}` }),
  );
const idsIn = (poster: ScriptedPoster) => poster.in('S1').map((m) => m.key.split('@')[0]);

async function setup(overrides: PipelineOptions['overrides'] = {}) {
  const clock = new ManualClock(t0);
  const slack = new ScriptedPoster('slack', clock, { settleMs: 15_000, lookPageSize: 5 });
  const h = await startPipeline({ posters: [slack], clock, overrides });
  await h.subscribe(s1, ['supporters']);
  await h.pacing.setKind(s1, 'supporters', { mode: 'live' });
  return { ...h, slack };
}

describe('doubt in a busy channel: the first look reads where a received post lands', () => {
  it('a lost answer among a notice a second is found by the first look, not a minute later', async () => {
    const h = await setup();
    h.slack.fail('S1', { kind: 'lost-answer' });
    const events = supporters(12);
    // One notice a second: the 15 s where the unanswered post may be hold three pages of 5.
    for (const event of events) {
      await h.offer(event);
      await h.advance(1_000);
    }
    await runFor(h, 30_000);
    expect(h.slack.looks).toHaveLength(1);
    expect(h.slack.looks[0]?.to).toBeLessThan(t0 + 15_000);
    expect(idsIn(h.slack)).toEqual(events.map((e) => e.id));
    expect(await h.offer(events[0]!)).toEqual([events[0]!.id]);
  });

  it('on replicas its own posts are only part of the channel: it counts the others in by the live replicas', async () => {
    const h = await setup({ postingReplicas: () => 3 });
    h.slack.fail('S1', { kind: 'lost-answer' });
    const ours = supporters(5);
    // This replica posts every third second; the two others post the rest (added as the platform shows them).
    for (let second = 0; second < 15; second += 1) {
      if (second % 3 === 0) await h.offer(ours[second / 3]!);
      else h.slack.messages.push(otherReplicasPost(h.slack, second, h.clock.now()));
      await h.advance(1_000);
    }
    await runFor(h, 30_000);
    // Its own four posts would fit a page of five; the channel's fifteen do not: the first look reads where s1 landed.
    expect(h.slack.looks).toHaveLength(1);
    expect(await h.offer(ours[0]!)).toEqual([ours[0]!.id]);
    expect(idsIn(h.slack).filter((id) => id?.startsWith('s'))).toEqual(ours.map((e) => e.id));
  });

  it('a quiet channel is read whole: a post that never landed is proven absent by one look', async () => {
    const h = await setup();
    h.slack.fail('S1', { kind: 'lost-request' });
    const events = supporters(3);
    for (const event of events) {
      await h.offer(event);
      await h.advance(4_000);
    }
    await runFor(h, 30_000);
    expect(h.slack.looks).toHaveLength(1);
    expect(idsIn(h.slack)).toEqual(['s2', 's3', 's1']);
  });
});

/** A message another replica posted (another project's notice) as the platform lists it. */
function otherReplicasPost(slack: ScriptedPoster, n: number, at: number) {
  return {
    id: `other-${n}`,
    channel: s1,
    message: { text: `another project's notice ${n}` },
    key: `other-${n}@slack:T1:S1`,
    at,
  } satisfies (typeof slack.messages)[number];
}
