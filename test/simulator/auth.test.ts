import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoLinkCaption, demoTeam, type Simulator } from '../../src/simulator/index.js';
import { get, projectSeed, startHarness } from './helpers.js';

let sim: Simulator;

beforeEach(async () => {
  ({ sim } = await startHarness({ projects: [] }));
  sim.createProject(
    projectSeed({
      linkCaption: 'live',
      title: 'Zulu',
      status: 'active',
      ownerId: 7,
      team: [{ userId: 8, role: 'member' }],
    }),
  );
  sim.createProject(projectSeed({ linkCaption: 'draft', title: 'Alpha', status: 'new', ownerId: 7 }));
  sim.createProject(projectSeed({ linkCaption: 'other', status: 'active', ownerId: 9 }));
});
afterEach(() => sim.close());

describe('authentication and scopes', () => {
  it('answers auth_required 401 without a credential on a key endpoint', async () => {
    const res = await get(sim, '/project/live/wall');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'auth_required', error_description: expect.any(String) });
  });

  it('accepts only Authorization: Bearer (another scheme counts as no credential)', async () => {
    const key = sim.issueProjectKey('live');
    const res = await get(sim, '/project/live/wall', undefined, {
      headers: { authorization: `Token ${key}` },
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('auth_required');
    const viaQuery = await get(sim, `/project/live/wall?api_key=${key}`);
    expect(viaQuery.body.error).toBe('auth_required');
  });

  it('answers invalid_api_key 401 for an unknown or revoked key', async () => {
    expect((await get(sim, '/project/live', 'svc_proj_doesnotexist')).body.error).toBe('invalid_api_key');
    const key = sim.issueProjectKey('live');
    expect((await get(sim, '/project/live', key)).status).toBe(200);
    sim.revokeKey(key);
    const res = await get(sim, '/project/live', key);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_api_key');
  });

  it('answers insufficient_scope 403 naming the missing scope', async () => {
    const key = sim.issueProjectKey('live', { scopes: ['project:read'] });
    const res = await get(sim, '/project/live/wall', key);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
    expect(res.body.error_description).toContain('wall:read');
  });

  it('answers key_project_mismatch for another existing project and project_access_denied for an unknown one', async () => {
    const key = sim.issueProjectKey('live');
    const other = await get(sim, '/project/other/fundings', key);
    expect([other.status, other.body.error]).toEqual([403, 'key_project_mismatch']);
    const unknown = await get(sim, '/project/nope/fundings', key);
    expect([unknown.status, unknown.body.error]).toEqual([403, 'project_access_denied']);
  });

  it("answers the project read with another project's key with the public view, as a key not entitled to more", async () => {
    const key = sim.issueProjectKey('live');
    const other = await get(sim, '/project/other', key);
    expect(other.status).toBe(200);
    expect(other.body.project.link_caption).toBe('other');
    expect(other.body.project).not.toHaveProperty('process_status');
  });

  it("answers GET /project with another project's key with key_project_mismatch when so configured (rule 7 read strictly)", async () => {
    const key = sim.issueProjectKey('live');
    sim.otherKeyProjectPage = 'mismatch';
    const refused = await get(sim, '/project/other', key);
    expect([refused.status, refused.body.error]).toEqual([403, 'key_project_mismatch']);
    // The lists refuse the key whatever the project page answers.
    sim.otherKeyProjectPage = 'public-view';
    const list = await get(sim, '/project/other/fundings', key);
    expect([list.status, list.body.error]).toEqual([403, 'key_project_mismatch']);
  });

  it('serves the project without a credential from status started on, as a public view without key fields', async () => {
    const anonymous = await get(sim, '/project/live');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.status).toBe(0);
    expect(anonymous.body.project.link_caption).toBe('live');
    expect(anonymous.body.project).not.toHaveProperty('process_status');
    expect(anonymous.headers.get('access-control-allow-origin')).toBeNull();
    const keyed = await get(sim, '/project/live', sim.issueProjectKey('live'));
    expect(keyed.body.project).toHaveProperty('process_status');
    expect(keyed.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('hides drafts from anonymous callers and outsiders but shows them to a project key and the team', async () => {
    expect((await get(sim, '/project/draft')).body.error).toBe('project_access_denied');
    expect((await get(sim, '/project/draft', sim.issueUserKey(99))).body.error).toBe('project_access_denied');
    expect((await get(sim, '/project/draft', sim.issueProjectKey('draft'))).body.project.status).toBe('new');
    expect((await get(sim, '/project/draft', sim.issueUserKey(7))).body.project.status).toBe('new');
  });

  it('answers project_access_denied for an unknown project without a credential', async () => {
    const res = await get(sim, '/project/nope');
    expect([res.status, res.body.error]).toEqual([403, 'project_access_denied']);
  });

  it('lets a team member User key read project sub-endpoints, but not an outsider', async () => {
    const member = sim.issueUserKey(8, { scopes: ['project:read'] });
    expect((await get(sim, '/project/live/wall', member)).status).toBe(200);
    expect(
      (await get(sim, '/project/live/wall', sim.issueUserKey(99, { scopes: ['project:read'] }))).body.error,
    ).toBe('project_access_denied');
    const noScope = await get(sim, '/project/live/wall', sim.issueUserKey(8, { scopes: [] }));
    expect(noScope.body.error).toBe('insufficient_scope');
    const subscribers = await get(sim, '/project/live/subscribers', member);
    expect(subscribers.body.error_description).toContain('contacts:read');
  });

  it('serves user endpoints only to User keys, user:read always on', async () => {
    const userKey = sim.issueUserKey(7, { scopes: [] });
    const identity = await get(sim, '/user/me/identity', userKey);
    expect(identity.body.data.id).toBe(7);
    expect(identity.body.data.scopes.map((s: { scope: string }) => s.scope)).toEqual(['user:read']);
    expect((await get(sim, '/user/me', userKey)).body.user.own_projects_count).toBe(2);
    expect((await get(sim, '/user/me/projects', userKey)).body.error).toBe('insufficient_scope');
    expect((await get(sim, '/user/me', sim.issueProjectKey('live'))).body.error).toBe('insufficient_scope');
    expect((await get(sim, '/user/me')).body.error).toBe('auth_required');
  });

  it('lists own and team projects including drafts, sorted as asked', async () => {
    const key = sim.issueUserKey(7, { scopes: ['project:read'] });
    const res = await get(sim, '/user/me/projects?sort=project-title-a', key);
    expect(res.body.data.map((p: { link_caption: string }) => p.link_caption)).toEqual(['draft', 'live']);
    expect(res.body.meta).toEqual({ total: 2, limit: 20, offset: 0 });
    expect((await get(sim, '/user/me/projects?sort=bogus', key)).body.error).toBe('invalid_value');
  });

  it('answers unknown routes with the framework-level prose error and null description', async () => {
    const res = await get(sim, '/projects/live');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'resource not found', error_description: null });
    expect((await get(sim, '/project/live/incentive/abc', sim.issueProjectKey('live'))).body).toEqual({
      error: 'bad request',
      error_description: null,
    });
  });

  it('never logs a key, only its kind', async () => {
    const key = sim.issueProjectKey('live');
    await get(sim, '/project/live/wall', key);
    await get(sim, '/project/live/wall', 'svc_proj_wrong');
    expect(sim.requests.map((r) => r.credential)).toEqual(['project', 'invalid']);
    expect(JSON.stringify(sim.requests)).not.toContain('svc_');
  });
});

describe('demo project', () => {
  it('starts with the lively solar-kiosk project by default', async () => {
    const { sim: demo } = await startHarness();
    try {
      const key = demo.issueProjectKey(demoLinkCaption);
      const project = (await get(demo, `/project/${demoLinkCaption}`, key)).body.project;
      expect(project).toMatchObject({
        currency: 'EUR',
        funding_threshold: 25000,
        project_type_all_or_nothing: true,
      });
      expect(project.supporter_count).toBeGreaterThan(5);
      const rewards = (await get(demo, `/project/${demoLinkCaption}/incentives`, key)).body.data;
      expect(rewards.some((r: { quantity_total: number }) => r.quantity_total === 0)).toBe(true);
      expect(rewards.some((r: { hidden_until_goal_reached: boolean }) => r.hidden_until_goal_reached)).toBe(
        true,
      );
      expect(
        rewards.some(
          (r: { funding_amount_until_unlock?: number }) => (r.funding_amount_until_unlock ?? 0) > 0,
        ),
      ).toBe(true);
      const owner = demo.issueUserKey(demoTeam.ownerId);
      expect((await get(demo, '/user/me', owner)).body.user.display_name).toBe('Clara Sonnberg');
    } finally {
      await demo.close();
    }
  });
});
