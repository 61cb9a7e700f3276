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
import { memoryStore } from '../../src/lib/store.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { runFor, startPipeline } from './pipeline-harness.js';
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

describe('a late copy of an earlier attempt, while the repeat a killed process sent is in doubt', () => {
  it('is removed as it is sighted: the repeat stands and decides the doubt, nothing is posted again', async () => {
    const clock = new ManualClock(t0);
    const store = memoryStore();
    const event = buildEvent.supporter({ id: 's1', displayName: 'Supporter 1' });
    const first = await slackProcess(clock, store);
    // The first attempt gets no answer and does not land (yet); the repeat after the deciding look lands, and
    // its answer is lost: the process dies right after it.
    first.slack.fail('S1', { kind: 'lost-request' }, { kind: 'lost-answer' });
    await first.offer(event);
    for (let waited = 0; first.slack.attempts.length < 2 && waited < 200_000; waited += 1_000)
      await first.advance(1_000);
    const [attemptA, attemptB] = first.slack.attempts;
    expect(attemptB).toBeDefined();
    expect(first.slack.in('S1')).toHaveLength(1);
    await first.stop();

    const second = await slackProcess(clock, store);
    second.slack.messages.push(...first.slack.messages);
    const repeat = first.slack.messages[0]!;
    await second.offer(event);
    await runFor(second, 20_000);
    // No look yet: the workspace's minute went on the look that led to the repeat.
    expect(second.slack.looks).toHaveLength(0);
    // The first attempt lands now, 20 s after its repeat, and Slack's event for it comes.
    const key = repeat.key;
    const late = { id: 'late-a', channel: s1, message: repeat.message, key, at: clock.now() };
    second.slack.messages.push({ ...late, attemptAt: attemptA!.attemptAt! });
    second.delivery.witnessed({
      channel: s1,
      key,
      messageId: 'late-a',
      at: clock.now(),
      attemptAt: attemptA!.attemptAt!,
    });
    await runFor(second, 2_000);
    // Removed at once; the repeat's copy stands alone.
    expect(second.slack.removed).toEqual(['late-a']);
    expect(second.slack.in('S1').map((m) => m.id)).toEqual([repeat.id]);
    // The next look the budget allows finds the repeat: the doubt is decided by it, nothing posted again.
    await runFor(second, 60_000, 5_000);
    expect(second.slack.looks.length).toBeGreaterThan(0);
    expect(second.slack.attempts).toHaveLength(0);
    // Posted for good: offered again, it is done at once.
    expect(await second.offer(event)).toEqual([event.id]);
    expect(second.slack.in('S1').map((m) => m.id)).toEqual([repeat.id]);
    expect(attemptB!.attemptAt).toBeGreaterThan(attemptA!.attemptAt!);
    await second.stop();
  });
});
