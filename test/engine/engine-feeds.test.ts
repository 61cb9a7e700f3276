import { expect, it } from 'vitest';
import {
  announcedSupporterKeys,
  describeEachListOrder,
  fundingKeyOf,
  initialSupporters,
  lc,
  requestsTo,
  runFor,
  step,
  t0,
} from './harness.js';

describeEachListOrder('engine feeds on the simulator', (startInOrder) => {
  it('the first run stores a baseline and announces nothing (subscribing a channel posts "now watching")', async () => {
    const h = await startInOrder({
      project: {
        supporters: initialSupporters(150),
        wallPosts: [{ message: 'Go!', at: t0 - 10_000 }],
        blogPosts: [{ title: 'Hello', text: 'Welcome', type: 'text', supporterOnly: false, at: t0 - 5_000 }],
      },
    });
    await step(h);
    await runFor(h, 5 * 60_000);
    expect(h.recorder.events.map((e) => e.type)).toEqual([]);
  });

  it('announces a new supporter, wall post and blog posts once, with number, total and plain text', async () => {
    const h = await startInOrder({ project: { supporters: initialSupporters(120) } });
    await step(h);
    h.recorder.clear();
    h.clock.advance(50_000);
    const key = h.project.addSupporter({ displayName: 'Ada <@everyone>', amount: 50 });
    h.project.addWallPost({
      authorName: 'Bob',
      message: '<b>Great</b> idea &amp; <a href="https://evil.example">link</a>',
    });
    h.project.addBlogPost({
      title: 'Update',
      text: 'secret text',
      type: 'story',
      supporterOnly: true,
      description: 'public teaser',
    });
    h.project.addBlogPost({ title: 'News', text: '<p>Open news</p>', type: 'text', supporterOnly: false });
    await runFor(h, 25 * 60_000);
    const supporters = h.recorder.ofType('supporter');
    expect(supporters).toHaveLength(1);
    expect(supporters[0]).toMatchObject({
      displayName: 'Ada <@everyone>',
      supporterCount: 121,
      fundingTotal: 170,
      entryKey: fundingKeyOf(key),
    });
    const wall = h.recorder.ofType('wall-post');
    expect(wall.map((w) => [w.author, w.message])).toEqual([['Bob', 'Great idea & link']]);
    const blog = h.recorder.ofType('blog-post');
    expect(blog.map((b) => b.title).sort()).toEqual(['News', 'Update']);
    const locked = blog.find((b) => b.title === 'Update');
    expect(locked?.teaser).toBe('public teaser');
    expect(JSON.stringify(h.recorder.events)).not.toContain('secret text');
    expect(locked?.link).toMatch(/\/solar-kiosk\/blog\/\d+$/);
    const recentBlog = await h.engine.readModel.recentBlogPosts(lc, 5);
    expect(recentBlog.value.map((p) => p.title)).toEqual(['News', 'Update']);
    expect(JSON.stringify(recentBlog.value)).not.toContain('secret text');
  });

  it('an idle cycle costs one request per feed however long the lists are', async () => {
    const h = await startInOrder({
      project: {
        supporters: initialSupporters(450),
        wallPosts: Array.from({ length: 230 }, (_, i) => ({ message: `m${i}`, at: t0 - (300 - i) * 1000 })),
      },
    });
    await step(h);
    // The one-time fill of the fundings' seen keys below the first read (350 entries: 4 idle reads).
    for (let i = 0; i < 4; i++) {
      h.clock.advance(60 * 60_000);
      await h.engine.runDue();
    }
    const from = h.sim.requests.length;
    h.clock.advance(60 * 60_000); // everything is due
    await h.engine.runDue();
    expect(requestsTo(h.sim, '/fundings', from)).toBe(1);
    expect(requestsTo(h.sim, '/wall', from)).toBe(1);
    expect(requestsTo(h.sim, '/blog', from)).toBe(2); // one list per blog type
    expect(requestsTo(h.sim, `/project/${lc}`, from)).toBe(1);
    expect(requestsTo(h.sim, '/incentives', from)).toBe(1);
  });

  it('position shifts between pages never duplicate, and skipped entries are caught next cycle', async () => {
    const h = await startInOrder({ project: { supporters: initialSupporters(300) } });
    await step(h);
    const before = new Set(h.project.activeSupportKeys().map(fundingKeyOf));
    for (let i = 0; i < 260; i++) h.project.addSupporter({ amount: 1, at: h.clock.now() - 5_000 + i });
    h.sim.faults.shiftBetweenPages({ path: '/fundings', insert: 2, remove: 1, n: 6 });
    await runFor(h, 3 * 60_000);
    h.sim.faults.clear();
    await runFor(h, 3 * 60_000);
    const announced = announcedSupporterKeys(h.recorder.events);
    expect(new Set(announced).size).toBe(announced.length);
    const active = h.project
      .activeSupportKeys()
      .map(fundingKeyOf)
      .filter((k) => !before.has(k));
    const announcedSet = new Set(announced);
    for (const k of active) expect(announcedSet.has(k), k).toBe(true);
  });

  it('failed supports cause no notice but correct the totals (the supporter count stays right)', async () => {
    // The project is re-read with every new supporter here, so the notice carries the count of that cycle.
    const h = await startInOrder({
      project: { supporters: initialSupporters(130) },
      engine: { projectRefreshOnChangeMs: 0 },
    });
    await step(h);
    const keys = h.project.activeSupportKeys();
    h.project.failSupport(keys.at(-1) ?? { supportTimestamp: 0, userId: 0 });
    h.project.failSupport(keys[3] ?? { supportTimestamp: 0, userId: 0 });
    await runFor(h, 2 * 60_000);
    expect(h.recorder.events.filter((e) => e.type !== 'support-dropped')).toEqual([]);
    h.project.addSupporter({ displayName: 'Zoe', amount: 5 });
    await runFor(h, 2 * 60_000);
    const [zoe] = h.recorder.ofType('supporter');
    expect(zoe?.supporterCount).toBe(129);
    const recent = await h.engine.readModel.recentSupporters(lc, 3);
    expect(recent.value.map((f) => f.user.display_name)[0]).toBe('Zoe');
    expect(
      recent.value.some(
        (f) => f.support_timestamp === keys.at(-1)?.supportTimestamp && f.user.id === keys.at(-1)?.userId,
      ),
    ).toBe(false);
  });
});
