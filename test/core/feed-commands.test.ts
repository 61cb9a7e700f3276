import { describe, expect, test } from 'vitest';
import { buildBlogPost, buildFunding, buildLockedBlogPost, buildProject, t0 } from '../support/builders.js';
import { allText, createCoreFixture } from '../support/core-fixture.js';
import { allHostileTexts, hostileTexts } from '../support/hostile-text.js';

describe('/supporters', () => {
  test('lists the latest public supporters with relative time', async () => {
    const f = createCoreFixture({
      projects: [
        {
          project: buildProject(),
          supporters: [
            buildFunding({ support_timestamp: t0 / 1000 - 120, user: { id: 1, display_name: 'Grace H.' } }),
            buildFunding({ support_timestamp: t0 / 1000 - 7200, user: { id: 2, display_name: 'Ada L.' } }),
          ],
        },
      ],
    });
    const m = await f.run('supporters');
    expect(m.title).toBe('Latest supporters of Solar Kiosk');
    expect(m.text).toBe('• Grace H. (2 minutes ago)\n• Ada L. (2 hours ago)');
  });

  test('a name that shows nothing is listed as the localized placeholder', async () => {
    const f = createCoreFixture({
      projects: [
        {
          project: buildProject(),
          supporters: [
            buildFunding({
              support_timestamp: t0 / 1000 - 120,
              user: { id: 1, display_name: '\u3164\u00ad' },
            }),
          ],
        },
      ],
    });
    expect((await f.run('supporters')).text).toBe('• a supporter (2 minutes ago)');
  });

  test('no supporters yet says so', async () => {
    expect((await createCoreFixture().run('supporters')).text).toBe('No public supporters yet.');
  });

  test('hostile display names stay single-line and bounded', async () => {
    const f = createCoreFixture({
      projects: [
        {
          project: buildProject(),
          supporters: allHostileTexts.map((name, i) => buildFunding({ user: { id: i, display_name: name } })),
        },
      ],
    });
    const m = await f.run('supporters');
    const lines = (m.text ?? '').split('\n');
    expect(lines).toHaveLength(10);
    for (const line of lines) expect(Array.from(line).length).toBeLessThan(100);
    expect(m.text).not.toMatch(/[\u200b\u202e\u2066\u001b]/);
  });
});

describe('/blog', () => {
  test('a supporter-only post shows its teaser with a badge, never its text', async () => {
    const locked = buildLockedBlogPost({ text: 'SECRET FULL TEXT', description: 'Public teaser' });
    const f = createCoreFixture({
      projects: [{ project: buildProject(), blogPosts: [buildBlogPost(), locked] }],
    });
    const m = await f.run('blog');
    const field = m.fields?.[1];
    expect(field?.name).toBe('Backstage: the first prototype · 🔒 supporters only');
    expect(field?.value).toContain('Public teaser');
    expect(allText(m)).not.toContain('SECRET FULL TEXT');
  });

  test('a supporter-only post the API did not redact still shows only the teaser', async () => {
    const unredacted = buildBlogPost({
      is_supporter_only: true,
      is_locked: false,
      text: 'FULL CONTENT FOR SUPPORTERS',
      description: null,
    });
    const m = await createCoreFixture({
      projects: [{ project: buildProject(), blogPosts: [unredacted] }],
    }).run('blog');
    expect(allText(m)).not.toContain('FULL CONTENT');
    expect(m.fields?.[0]?.value).toContain('Only supporters can read this post.');
  });

  test('public posts show type, date, reading time and a teaser', async () => {
    const m = await createCoreFixture({
      projects: [
        { project: buildProject(), blogPosts: [buildBlogPost({ type: 'story', reading_time_minutes: 1 })] },
      ],
    }).run('blog');
    expect(m.fields?.[0]?.value).toBe('Story · Dec 31, 2025 · 1 min read\nThe campaign has started.');
  });

  test('German blog listing', async () => {
    const f = createCoreFixture({
      projects: [{ project: buildProject(), blogPosts: [buildLockedBlogPost()] }],
    });
    await f.settings.setLocale({ platform: 'discord', workspaceId: 'G1', channelId: 'C1' }, 'channel', 'de');
    const m = await f.run('blog');
    expect(m.title).toBe('Blog von Solar Kiosk');
    expect(m.fields?.[0]?.name).toContain('nur für Unterstützer');
    expect(m.fields?.[0]?.value).toContain('6 Min. Lesezeit');
  });

  test('hostile titles do not become links or markup', async () => {
    const m = await createCoreFixture({
      projects: [
        {
          project: buildProject(),
          blogPosts: [
            buildBlogPost({ title: hostileTexts.markdownLink, text: hostileTexts.script, description: '' }),
          ],
        },
      ],
    }).run('blog');
    expect(m.links).toBeUndefined();
    expect(allText(m)).not.toContain('<script>');
  });
});
