import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostileLongText, type Simulator } from '../../src/simulator/index.js';
import { get, projectSeed, startHarness } from './helpers.js';

let sim: Simulator;
const longText = `<p>${'word '.repeat(1000)}</p>`;

beforeEach(async () => {
  ({ sim } = await startHarness({
    projects: [
      projectSeed({
        linkCaption: 'p',
        ownerId: 7,
        team: [{ userId: 8, role: 'manager' }],
        blogPosts: [
          { title: 'public', text: '<p>hello</p>', type: 'text', supporterOnly: false },
          { title: 'secret', text: longText, type: 'text', supporterOnly: true },
          {
            title: 'hostile',
            text: hostileLongText,
            type: 'text',
            supporterOnly: true,
            description: hostileLongText,
          },
          { title: 'story', text: '<p>a story</p>', type: 'story', supporterOnly: true },
        ],
      }),
    ],
  }));
});
afterEach(() => sim.close());

const blog = async (query: string, key: string) => (await get(sim, `/project/p/blog${query}`, key)).body;

describe('supporter-only blog posts', () => {
  it('are always listed and counted, redacted for a Project key even with include_supporter_only=1', async () => {
    const key = sim.issueProjectKey('p');
    for (const query of ['', '?include_supporter_only=1']) {
      const body = await blog(query, key);
      expect(body.meta.total).toBe(3);
      const secret = body.data.find((p: { title: string }) => p.title === 'secret');
      expect(secret).toMatchObject({
        is_supporter_only: true,
        is_locked: true,
        text: '',
        image: null,
        image_mobile: null,
        gallery_images: [],
        embed_url_13: '',
        video: null,
      });
    }
  });

  it('keep a teaser of at most 400 characters and the reading time of the FULL text', async () => {
    const body = await blog('', sim.issueProjectKey('p'));
    for (const post of body.data) expect(post.description.length).toBeLessThanOrEqual(400);
    const secret = body.data.find((p: { title: string }) => p.title === 'secret');
    expect(secret.reading_time_minutes).toBe(5);
    expect(secret.description.length).toBeGreaterThan(0);
  });

  it('unlock for a team member User key only with include_supporter_only=1', async () => {
    const manager = sim.issueUserKey(8, { scopes: ['project:read'] });
    const locked = await blog('', manager);
    expect(
      locked.data.every(
        (p: { is_supporter_only: boolean; is_locked: boolean }) => p.is_locked === p.is_supporter_only,
      ),
    ).toBe(true);
    const open = await blog('?include_supporter_only=1', manager);
    const secret = open.data.find((p: { title: string }) => p.title === 'secret');
    expect(secret).toMatchObject({ is_locked: false, text: longText });
    expect(secret.image).not.toBeNull();
  });

  it('filter by blog_type (default text) and reject an unknown type', async () => {
    const key = sim.issueProjectKey('p');
    expect((await blog('?blog_type=story', key)).data.map((p: { title: string }) => p.title)).toEqual([
      'story',
    ]);
    expect((await get(sim, '/project/p/blog?blog_type=video', key)).body.error).toBe('invalid_value');
    expect((await get(sim, '/project/p/blog?include_supporter_only=2', key)).status).toBe(400);
  });
});
