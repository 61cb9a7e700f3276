/**
 * The daily thread's parent on a Slack channel (issue 29, real-bot seed 9). Its notices and batches wait for it:
 * - refused because the channel is archived, it closes the channel as a refused post does (the notices held for
 *   the catch-up, the channel re-checked), instead of being tried again every 5 s until one try went in doubt;
 * - in doubt, it is decided by the doubt resolver's deciding look (90 s late-landing span) within the 120 s bound,
 *   or, answered by a 5xx, as soon as the answer allows (its ledger record keeps when: `landsBy`).
 */
import { describe, expect, test } from 'vitest';
import type { ChannelAccessResult, ChannelRef } from '../../src/core/ports.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { runFor, startPipeline } from './pipeline-harness.js';
import { ScriptedPoster } from './scripted-poster.js';

const s1: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'S1' };

async function slackChannelWithDailyThread() {
  const clock = new ManualClock(t0);
  // The adapter's answer to "can the bot post there?" (the access watch's re-check).
  let access: ChannelAccessResult = { ok: true };
  // Slack without message events: a post may land up to 90 s late, one look a minute.
  const slack = new ScriptedPoster('slack', clock, {
    settleMs: 15_000,
    lookIntervalMs: 60_000,
    lateLandingMs: 90_000,
  });
  const h = await startPipeline({
    posters: [slack],
    clock,
    access: { slack: { canPost: async () => access } },
  });
  await h.subscribe(s1, ['supporters']);
  await h.pacing.setKind(s1, 'supporters', { mode: 'live' });
  await h.dailyThreads.set(s1, true);
  return {
    ...h,
    slack,
    setAccess: (next: ChannelAccessResult) => {
      access = next;
    },
  };
}

/** The channel's top-level messages (the parents) and the thread parent each reply names. */
const parentsIn = (slack: ScriptedPoster) => slack.in('S1').filter((m) => !m.thread);
const replyParents = (slack: ScriptedPoster) =>
  slack
    .in('S1')
    .filter((m) => m.thread)
    .map((m) => m.thread?.parentMessageId);

describe('the daily thread parent on Slack', () => {
  test('a parent that never landed is decided by its deciding look and posted once; its reply follows within 120 s', async () => {
    const h = await slackChannelWithDailyThread();
    // The parent's post times out before Slack got it: in doubt, not landed.
    h.slack.fail('S1', { kind: 'lost-request' });
    await h.offer(buildEvent.supporter({ id: 'k1', displayName: 'Fan 1', detectedAt: t0 }));
    expect(h.slack.messages).toHaveLength(0);

    await runFor(h, 120_000, 5_000);
    const parents = parentsIn(h.slack);
    const replies = h.slack.in('S1').filter((m) => m.thread);
    expect(parents).toHaveLength(1);
    // Not posted again before a look could prove the first attempt absent (90 s late-landing span).
    expect(parents[0]!.at).toBeGreaterThanOrEqual(t0 + 90_000);
    expect(replyParents(h.slack)).toEqual([parents[0]!.id]);
    expect(replies[0]!.at - t0).toBeLessThanOrEqual(120_000);
    // Tried again when the resolver could decide the parent, not every 5 s meanwhile (19 warnings before).
    expect(h.logger.records.filter((r) => r.level === 'warn').map((r) => r.message)).toEqual([
      'the message this notice goes under (a daily thread parent) is in doubt: looked for before any repeat',
    ]);
  });

  test('a parent answered with a 5xx is decided when the answer allows, not after the late-landing span', async () => {
    const h = await slackChannelWithDailyThread();
    // Slack answered 500 and did not post it: whatever it did, it did before that answer (the ledger keeps when).
    h.slack.fail('S1', { kind: 'server-error' });
    await h.offer(buildEvent.supporter({ id: 'k1', displayName: 'Fan 1', detectedAt: t0 }));
    expect(h.slack.attempts).toHaveLength(1);

    await runFor(h, 30_000, 1_000);
    const parents = parentsIn(h.slack);
    expect(parents).toHaveLength(1);
    // One look, as soon as the answer allowed (the 90 s span applies to a post with no answer).
    expect(h.slack.looks).toHaveLength(1);
    expect(parents[0]!.at - t0).toBeLessThan(20_000);
    expect(replyParents(h.slack)).toEqual([parents[0]!.id]);
  });

  test('a parent refused because the channel is archived closes the channel: its notice is held, not retried every few seconds, and follows its parent once access returns', async () => {
    const h = await slackChannelWithDailyThread();
    h.setAccess({ ok: false, reason: 'archived' });
    h.slack.fail('S1', { kind: 'unavailable', reason: 'archived' });
    await h.offer(buildEvent.supporter({ id: 'k1', displayName: 'Fan 1', detectedAt: t0 }));

    // Refused as a post is: the channel is marked, its notice held for the catch-up.
    expect((await h.access.get(s1))?.reason).toBe('archived');
    await runFor(h, 25_000, 5_000);
    expect(h.slack.attempts).toHaveLength(1);
    expect(h.slack.messages).toHaveLength(0);

    // Unarchived: the re-check (within 50 s) sends the parent, then its notice in its thread, once each.
    h.setAccess({ ok: true });
    await runFor(h, 60_000, 5_000);
    const parents = parentsIn(h.slack);
    expect(parents).toHaveLength(1);
    expect(replyParents(h.slack)).toEqual([parents[0]!.id]);
  });

  test('a parent that landed while its answer was lost is decided by its sighting: the notice goes under it at once', async () => {
    const h = await slackChannelWithDailyThread();
    h.slack.fail('S1', { kind: 'lost-answer' });
    await h.offer(buildEvent.supporter({ id: 'k1', displayName: 'Fan 1', detectedAt: t0 }));
    const [parent] = h.slack.messages;
    expect(parent).toBeDefined();

    // Slack's message event for it comes 2 s later (the app's own message, its key in the metadata).
    await h.advance(2_000);
    h.delivery.witnessed({ channel: s1, key: parent!.key, messageId: parent!.id, at: parent!.at });
    await h.advance(0);
    const replies = h.slack.in('S1').filter((m) => m.thread);
    expect(replies.map((r) => r.thread?.parentMessageId)).toEqual([parent!.id]);
    // At the sighting, not at the lane's next try (3.75-6.25 s after the failure).
    expect(replies[0]!.at).toBe(t0 + 2_000);
    expect(parentsIn(h.slack)).toHaveLength(1);
  });
});
