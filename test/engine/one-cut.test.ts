import { describe, expect, it } from 'vitest';
import { renderNotice } from '../../src/core/notices/render-notice.js';
import { buildDigest } from '../../src/digest/index.js';
import { limits } from '../../src/domain/text-limits.js';
import { lc, runFor, step, useEngineHarness } from './harness.js';

const startHarness = useEngineHarness();

/** `words` words of nine letters: long enough for every cut, with spaces to cut at. */
const long = (word: string, words: number) => Array.from({ length: words }, () => word).join(' ');

describe('one cut for one kind of text, wherever it is cut (issue 23: 80/200 engine, 60/120 core, 60/80/120 digest)', () => {
  it('a long name and title read the same in the event, the notice and the digest', async () => {
    const h = await startHarness();
    await step(h);
    h.clock.advance(1_000); // after the digest's first snapshot
    const name = long('Supporter', 12);
    const title = long('Headline!', 20);
    h.project.addSupporter({ displayName: name, amount: 5 });
    h.project.addWallPost({ authorName: name, message: 'hello' });
    h.project.addBlogPost({ title, text: 'x', type: 'text', supporterOnly: false });
    // The blog is read for its 300 s target (latency-bound.ts): one interval and its jitter.
    await runFor(h, 6 * 60_000);

    const [supporter] = h.recorder.ofType('supporter');
    const [wall] = h.recorder.ofType('wall-post');
    const [blog] = h.recorder.ofType('blog-post');
    // The engine stores what the channel will show: the table's bound, not one of its own.
    expect(Array.from(supporter!.displayName).length).toBeLessThanOrEqual(limits.name);
    expect(Array.from(blog!.title).length).toBeLessThanOrEqual(limits.title);
    expect(renderNotice(supporter!, 'en', 'UTC').title).toBe(`🎉 New supporter: ${supporter!.displayName}`);
    expect(renderNotice(wall!, 'en', 'UTC').title).toBe(`💬 New wall post by ${wall!.author}`);
    expect(renderNotice(blog!, 'en', 'UTC').title).toBe(`📝 New blog post: ${blog!.title}`);

    const digest = await buildDigest({
      readModel: h.engine.readModel,
      project: lc,
      now: h.clock.now(),
      locale: 'en',
      timeZone: 'UTC',
    });
    expect(digest.wall?.latest?.author).toBe(wall!.author);
    expect(digest.blogPosts?.[0]?.title).toBe(blog!.title);
  });
});
