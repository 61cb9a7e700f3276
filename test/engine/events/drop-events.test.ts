import { expect, it } from 'vitest';
import { describeEachListOrder, fundingKeyOf, initialSupporters, runFor, step, t0 } from '../harness.js';

describeEachListOrder('drops become correction events', (startInOrder) => {
  it('a support that leaves the list and a deleted wall post name the notices they take back', async () => {
    const h = await startInOrder({
      project: { supporters: initialSupporters(30), wallPosts: [{ message: 'first', at: t0 - 10_000 }] },
    });
    await step(h);
    h.recorder.clear();
    const key = h.project.addSupporter({ displayName: 'Eve <!channel>', amount: 20 });
    const wallId = h.project.addWallPost({ authorName: 'Mallory', message: 'hi' });
    await runFor(h, 10 * 60_000);
    const announced = h.recorder.ofType('supporter')[0];
    expect(announced?.entryKey).toBe(fundingKeyOf(key));
    h.project.failSupport(key);
    h.project.removeWallPost(wallId);
    await runFor(h, 30 * 60_000);
    const drops = h.recorder.ofType('support-dropped');
    expect(drops).toEqual([
      expect.objectContaining({ originalEventId: announced?.id, displayName: 'Eve <!channel>' }),
    ]);
    const wall = h.recorder.ofType('wall-post')[0];
    expect(h.recorder.ofType('post-deleted')).toEqual([
      expect.objectContaining({ feed: 'wall', originalEventId: wall?.id, label: 'Mallory' }),
    ]);
  });

  it('after payout nothing is taken back (a wall post deleted then stays announced)', async () => {
    const h = await startInOrder({
      project: { supporters: initialSupporters(30), wallPosts: [{ message: 'first', at: t0 - 10_000 }] },
    });
    await step(h);
    const wallId = h.project.addWallPost({ authorName: 'Late', message: 'hi' });
    await runFor(h, 10 * 60_000);
    expect(h.recorder.ofType('wall-post')).toHaveLength(1);
    h.project.payoff();
    await runFor(h, 30 * 60_000);
    h.project.removeWallPost(wallId);
    await runFor(h, 30 * 60_000);
    expect(h.recorder.ofType('post-deleted')).toEqual([]);
  });
});
