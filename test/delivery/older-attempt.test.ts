/**
 * Chaos seed 26 (late landings on), as a module test: a process decided a doubt absent by its deciding look and
 * posted again, and died before the repeat's answer; the repeat landed while no process received events. After the
 * restart, the FIRST attempt landed late and its event came. Taken as the doubt's answer, that late copy stood
 * beside the repeat's (whose id died with the process) until Slack sent the repeat's event again or a look came:
 * the workspace's one look a minute had gone on the look that led to the repeat (18.5 s in the seed, bound 5 s).
 * Now the late copy of the older attempt is removed as it is sighted, and the repeat decides the doubt.
 */
import { describe, expect, it } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { createDeliveryLedger } from '../../src/delivery/delivery-ledger.js';
import { memoryStore, namespaced } from '../../src/lib/store.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { runFor, startPipeline } from './pipeline-harness.js';
import type { PostFault } from './scripted-poster.js';
import { ScriptedPoster } from './scripted-poster.js';

const s1: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'S1' };

async function slackProcess(clock: ManualClock, store: ReturnType<typeof memoryStore>) {
  const slack = new ScriptedPoster('slack', clock, {
    lookIntervalMs: 60_000,
    lateLandingMs: 90_000,
    removes: true,
  });
  const h = await startPipeline({ posters: [slack], clock, store });
  await h.subscribe(s1, ['supporters']);
  await h.pacing.setKind(s1, 'supporters', { mode: 'live' });
  return { ...h, slack };
}

const event = buildEvent.supporter({ id: 's1', displayName: 'Supporter 1' });

/**
 * A first process: the first attempt gets no answer and does not land (yet); the repeat after the deciding look
 * does `repeat`, and the process dies right after it. Then a second process takes the doubt over.
 */
async function repeatLeftInDoubt(repeat: PostFault, lateAfterMs = 20_000) {
  const clock = new ManualClock(t0);
  const store = memoryStore();
  const first = await slackProcess(clock, store);
  first.slack.fail('S1', { kind: 'lost-request' }, repeat);
  await first.offer(event);
  for (let waited = 0; first.slack.attempts.length < 2 && waited < 200_000; waited += 1_000)
    await first.advance(1_000);
  const [attemptA, attemptB] = first.slack.attempts;
  expect(attemptB!.attemptAt).toBeGreaterThan(attemptA!.attemptAt!);
  await first.stop();
  const second = await slackProcess(clock, store);
  second.slack.messages.push(...first.slack.messages);
  await second.offer(event);
  await runFor(second, lateAfterMs);
  // No look yet: the workspace's minute went on the look that led to the repeat.
  expect(second.slack.looks).toHaveLength(0);
  // The first attempt lands now, after its repeat, and Slack's event for it comes.
  const key = attemptA!.key;
  const late = { id: 'late-a', channel: s1, message: { title: 'late' }, key, at: clock.now() };
  second.slack.messages.push({ ...late, attemptAt: attemptA!.attemptAt! });
  second.delivery.witnessed({
    channel: s1,
    key,
    messageId: late.id,
    at: late.at,
    attemptAt: attemptA!.attemptAt!,
  });
  await runFor(second, 2_000);
  const ledger = createDeliveryLedger(namespaced(store, 'deliveries/'), {
    clock,
    prefix: 'notices/delivered/',
  });
  const record = () => ledger.get({ id: event.id, channel: s1 });
  return { second, late, record };
}

describe('a late copy of an earlier attempt, while the repeat a killed process sent is in doubt', () => {
  it('is removed as it is sighted: the repeat stands and decides the doubt, nothing is posted again', async () => {
    const { second, late, record } = await repeatLeftInDoubt({ kind: 'lost-answer' });
    const repeat = second.slack.in('S1').find((m) => m.id !== late.id);
    // Removed at once; the repeat's copy stands alone.
    expect(second.slack.removed).toEqual(['late-a']);
    expect(second.slack.in('S1').map((m) => m.id)).toEqual([repeat!.id]);
    // The next look the budget allows finds the repeat: the doubt is decided by it, nothing posted again.
    await runFor(second, 60_000, 5_000);
    expect(second.slack.looks.length).toBeGreaterThan(0);
    expect(second.slack.attempts).toHaveLength(0);
    expect(await record()).toMatchObject({ state: 'posted', messageId: repeat!.id });
    expect(second.slack.in('S1').map((m) => m.id)).toEqual([repeat!.id]);
    await second.stop();
  });

  it('a look that read it before its removal applied does not make it the copy that counts', async () => {
    // The repeat never landed; the first attempt landed 5 s after it, where the repeat's look reads, and that look
    // (in flight as the late copy's event came) still showed the copy.
    const { second, late, record } = await repeatLeftInDoubt({ kind: 'lost-request' }, 5_000);
    expect(second.slack.removed).toEqual(['late-a']);
    second.slack.messages.push(late);
    await runFor(second, 120_000, 5_000);
    // Not confirmed under the removed copy: posted again, once.
    expect(second.slack.attempts).toHaveLength(1);
    const posted = await record();
    expect(posted?.state).toBe('posted');
    expect(posted?.messageId).not.toBe('late-a');
    expect(
      second.slack
        .in('S1')
        .filter((m) => m.id !== late.id)
        .map((m) => m.id),
    ).toEqual([posted?.messageId]);
    await second.stop();
  });
});
