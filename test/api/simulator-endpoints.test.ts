import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ApiClient,
  ForbiddenError,
  isPubliclyVisible,
  NotFoundError,
  parseProjectKey,
  parseUserKey,
} from '../../src/api/index.js';
import { demoRewards, demoTeam, type Simulator } from '../../src/simulator/index.js';
import { allPages, rejection, type SimHarness, startHarness } from './helpers/sim.js';

const LC = 'solar-kiosk';
let h: SimHarness;
let sim: Simulator;
let api: ApiClient;

beforeEach(async () => {
  h = await startHarness();
  sim = h.sim;
  api = h.api;
});
afterEach(async () => {
  await h.close();
});

const projectKey = (scopes?: Parameters<Simulator['issueProjectKey']>[1]) =>
  parseProjectKey(sim.issueProjectKey(LC, scopes));

describe('project', () => {
  it('GET /project/{link_caption} with a key returns the full project; the legacy top-level status is not needed', async () => {
    const project = await api.project(LC, projectKey()).get();
    expect(project).toMatchObject({
      link_caption: LC,
      currency: 'EUR',
      funding_threshold: 25_000,
      status: 'active',
    });
    expect(project.process_status).toBeDefined();
    expect(project.url.main).toMatch(/^https:\/\//);
  });

  it('an unauthenticated GET /project answers from status started on, without the fields a key adds', async () => {
    const project = await api.project(LC).get();
    expect(project.link_caption).toBe(LC);
    expect(project.process_status).toBeUndefined();
    expect(sim.requests.at(-1)?.credential).toBe('none');
  });

  it('a draft (status new) is not visible without a key, and visible to a Project API key with project:read', async () => {
    sim.project(LC).setStatus('new');
    const error = await rejection(api.project(LC).get());
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as ForbiddenError).code).toBe('project_access_denied');
    expect((await api.project(LC, projectKey()).get()).status).toBe('new');
  });

  it('a key without project:read gets insufficient_scope with a hint naming project:read', async () => {
    const error = await rejection(api.project(LC, projectKey({ scopes: ['wall:read'] })).get());
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as ForbiddenError).code).toBe('insufficient_scope');
    expect((error as ForbiddenError).hint).toContain('project:read');
  });
});

describe('rewards', () => {
  it('the list of rewards includes manually hidden rewards and rewards hidden until the goal is reached', async () => {
    const rewards = await allPages(api.project(LC, projectKey()).incentivesPage);
    const byId = new Map(rewards.map((r) => [r.id, r]));
    expect(byId.get(demoRewards.sponsor)?.status).toBe('hidden');
    expect(byId.get(demoRewards.secret)?.hidden_until_goal_reached).toBe(true);
    expect(isPubliclyVisible(byId.get(demoRewards.sponsor)!)).toBe(false);
    expect(isPubliclyVisible(byId.get(demoRewards.secret)!)).toBe(false);
    expect(isPubliclyVisible(byId.get(demoRewards.postcard)!)).toBe(true);
    // A reward with an unlock threshold but not secret is shown locked.
    const workshop = byId.get(demoRewards.workshop)!;
    expect(isPubliclyVisible(workshop)).toBe(true);
    expect(workshop.is_unlocked).toBe(false);
    expect(workshop.funding_amount_until_unlock).toBeGreaterThan(0);
  });

  it('a single reward adds the variation groups: fixed choices, free text, unused groups', async () => {
    const shirt = await api.project(LC, projectKey()).incentive(demoRewards.shirt);
    expect(shirt.variant_label_1).toBe('Size');
    expect(shirt.variant_choices_1.map((c) => c.name)).toEqual(['S', 'M', 'L', 'XL']);
    expect(shirt.variant_choices_1.every((c) => c.group === 1)).toBe(true);
    expect(shirt.variant_label_3).toBe('Name on the back');
    expect(shirt.variant_choices_3).toEqual([]);
    const postcard = await api.project(LC, projectKey()).incentive(demoRewards.postcard);
    expect(postcard.variant_label_1).toBeNull();
  });

  it('a reward id that is not in the project is not_found', async () => {
    const error = await rejection(api.project(LC, projectKey()).incentive(999_999));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).code).toBe('not_found');
  });
});

describe('blog', () => {
  it('blog_type selects text or story posts, default text', async () => {
    const project = api.project(LC, projectKey());
    const text = await project.blogPage();
    const story = await project.blogPage({ blogType: 'story' });
    expect(text.items.length).toBeGreaterThan(0);
    expect(text.items.every((p) => p.type === 'text')).toBe(true);
    expect(story.items.length).toBeGreaterThan(0);
    expect(story.items.every((p) => p.type === 'story')).toBe(true);
  });

  it('a Project API Key never unlocks supporter-only blog content, even with include_supporter_only=1', async () => {
    const project = api.project(LC, projectKey());
    for (const blogType of ['text', 'story'] as const) {
      const posts = await allPages((p) => project.blogPage({ ...p, blogType, includeSupporterOnly: true }));
      const gated = posts.filter((p) => p.is_supporter_only);
      expect(gated.length).toBeGreaterThan(0);
      for (const post of gated) {
        expect(post.is_locked).toBe(true);
        expect(post.text).toBe('');
        expect((post.description ?? '').length).toBeLessThanOrEqual(400);
        expect(post.reading_time_minutes).toBeGreaterThan(0);
      }
    }
    expect(sim.requests.at(-1)?.query.include_supporter_only).toBe('1');
  });

  it('supporter-only posts are always listed and counted in meta.total', async () => {
    const page = await api.project(LC, projectKey()).blogPage();
    expect(page.meta.total).toBe(page.items.length);
    expect(page.items.some((p) => p.is_supporter_only)).toBe(true);
  });
});

/**
 * Every entry of a list the API client has no call for (orders and subscribers: fundbot reads no
 * personal data), read page by page with plain requests: the simulator still serves them as the spec says.
 */
async function rawList(
  path: string,
  key: string,
): Promise<{ status: number; items: Record<string, unknown>[]; code?: string }> {
  const items: Record<string, unknown>[] = [];
  for (let offset = 0; ; offset += 100) {
    const response = await fetch(`${sim.url}${path}?limit=100&offset=${offset}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body = (await response.json()) as { data?: Record<string, unknown>[]; error?: string };
    if (!response.ok) return { status: response.status, items, ...(body.error ? { code: body.error } : {}) };
    items.push(...(body.data ?? []));
    if ((body.data ?? []).length < 100) return { status: response.status, items };
  }
}

describe('orders, subscribers, wall, fundings', () => {
  it('orders answer funding_not_successful (403) until the project is funded 100%', async () => {
    const key = sim.issueProjectKey(LC);
    expect(await rawList(`/project/${LC}/orders`, key)).toMatchObject({
      status: 403,
      code: 'funding_not_successful',
    });

    sim.project(LC).addSupporter({ displayName: 'Big Sponsor', amount: 30_000 });
    const orders = await rawList(`/project/${LC}/orders`, key);
    expect(orders.items.length).toBe(sim.project(LC).snapshot().orders.length);
    expect(new Set(orders.items.map((o) => o['transaction_number'])).size).toBe(orders.items.length);
  });

  it('orders list only supports in status success: a failed support drops out before payoff', async () => {
    const simProject = sim.project(LC);
    simProject.addSupporter({ amount: 30_000 });
    const failing = simProject.addSupporter({ displayName: 'Card Declined', amount: 10 });
    const key = sim.issueProjectKey(LC);
    const before = await rawList(`/project/${LC}/orders`, key);
    simProject.failSupport(failing);
    const after = await rawList(`/project/${LC}/orders`, key);
    expect(after.items.length).toBe(before.items.length - 1);
    const fundings = await allPages(api.project(LC, projectKey()).fundingsPage);
    expect(fundings.some((f) => f.user.id === failing.userId)).toBe(false);
  });

  it('subscribers without an account have user null; each list needs its own scope', async () => {
    const subscribers = await rawList(`/project/${LC}/subscribers`, sim.issueProjectKey(LC));
    expect(subscribers.items).toHaveLength(4);
    expect(subscribers.items.some((s) => s['user'] === null)).toBe(true);
    const withoutScope = sim.issueProjectKey(LC, { scopes: ['project:read'] });
    for (const list of ['orders', 'subscribers']) {
      expect(await rawList(`/project/${LC}/${list}`, withoutScope)).toMatchObject({
        status: 403,
        code: 'insufficient_scope',
      });
    }
  });

  it('wall posts carry id, message and user', async () => {
    const wall = await allPages(api.project(LC, projectKey()).wallPage);
    expect(wall).toHaveLength(5);
    expect(wall.map((w) => w.message)).toContain('Hey @everyone, schaut euch das an!');
  });

  it('public fundings carry support_timestamp and user (id, display_name), with meta', async () => {
    const page = await api.project(LC, projectKey()).fundingsPage();
    expect(page.meta.total).toBe(13);
    expect(page.items[0]).toEqual({
      support_timestamp: expect.any(Number),
      user: { id: expect.any(Number), display_name: expect.any(String) },
    });
  });
});

describe('user endpoints', () => {
  const userKey = (userId: number = demoTeam.ownerId) =>
    parseUserKey(sim.issueUserKey(userId, { scopes: ['project:read'] }));

  it('identity lists the scopes with their endpoints and no personal data', async () => {
    const identity = await api.user(userKey()).identity();
    expect(identity.id).toBe(demoTeam.ownerId);
    expect(identity.scopes.map((s) => s.scope)).toEqual(
      expect.arrayContaining(['user:read', 'project:read']),
    );
  });

  it('me returns the own profile', async () => {
    const me = await api.user(userKey()).me();
    expect(me).toMatchObject({ id: demoTeam.ownerId, display_name: 'Clara Sonnberg', own_projects_count: 1 });
  });

  it('own incentives honour sort, fundable and is_favorite', async () => {
    const user = api.user(userKey());
    const byPrice = await allPages((p) => user.incentivesPage({ ...p, sort: 'price-d' }));
    const prices = byPrice.map((i) => i.price);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    const favourites = await allPages((p) => user.incentivesPage({ ...p, isFavorite: true }));
    expect(favourites.map((i) => i.id)).toEqual([demoRewards.shirt]);
    expect((await allPages((p) => user.incentivesPage({ ...p, fundable: true }))).length).toBe(
      byPrice.length,
    );
    sim.project(LC).setStatus('successful');
    expect(await allPages((p) => user.incentivesPage({ ...p, fundable: true }))).toEqual([]);
    expect(favourites[0]?.project.link_caption).toBe(LC);
  });

  it('own projects include drafts and honour sort', async () => {
    sim.createProject({
      linkCaption: 'a-draft',
      title: 'Aardvark draft',
      status: 'new',
      ownerId: demoTeam.ownerId,
    });
    const projects = await allPages((p) =>
      api.user(userKey()).projectsPage({ ...p, sort: 'project-title-a' }),
    );
    expect(projects.map((p) => p.link_caption)).toEqual(['a-draft', LC]);
    expect(projects[0]?.status).toBe('new');
  });

  it('a User API key without project:read gets insufficient_scope naming project:read and the account settings', async () => {
    const key = parseUserKey(sim.issueUserKey(demoTeam.ownerId, { scopes: [] }));
    const error = await rejection(api.user(key).projectsPage());
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as ForbiddenError).hint).toBe(
      'create a User API key with the project:read scope in account settings → API and integrations',
    );
  });
});

describe('openapi', () => {
  it('GET /openapi.json is public and describes the project and user endpoints', async () => {
    const doc = (await api.openapi()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/project/{link_caption}',
        '/project/{link_caption}/wall',
        '/user/me/projects',
      ]),
    );
    expect(sim.requests.at(-1)?.credential).toBe('none');
  });
});
