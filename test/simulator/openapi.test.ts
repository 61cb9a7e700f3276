import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { get, startHarness } from './helpers.js';

let sim: Simulator;
beforeEach(async () => {
  ({ sim } = await startHarness({ projects: [] }));
});
afterEach(() => sim.close());

const expectedPaths = [
  '/project/{link_caption}',
  '/project/{link_caption}/incentives',
  '/project/{link_caption}/incentive/{id}',
  '/project/{link_caption}/blog',
  '/project/{link_caption}/orders',
  '/project/{link_caption}/subscribers',
  '/project/{link_caption}/wall',
  '/project/{link_caption}/fundings',
  '/user/me/identity',
  '/user/me',
  '/user/me/incentives',
  '/user/me/projects',
];

describe('/openapi.json', () => {
  it('is public and lists every GET endpoint with parameters and schemas, but not itself', async () => {
    const res = await get(sim, '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths).sort()).toEqual([...expectedPaths].sort());
    const blog = res.body.paths['/project/{link_caption}/blog'].get;
    expect(blog.parameters.map((p: { name: string }) => p.name)).toEqual([
      'link_caption',
      'blog_type',
      'offset',
      'limit',
      'include_supporter_only',
    ]);
    expect(res.body.components.schemas.BlogPost.properties.reading_time_minutes).toEqual({ type: 'integer' });
  });

  it('changes when a variant or transform is set, for drift detection tests', async () => {
    const baseline = (await get(sim, '/openapi.json')).body;
    sim.setOpenApiVariant('endpoint-removed');
    const removed = (await get(sim, '/openapi.json')).body;
    expect(removed.paths).not.toHaveProperty(['/project/{link_caption}/subscribers']);
    expect(removed.info.version).not.toBe(baseline.info.version);
    sim.setOpenApiVariant('field-added');
    expect((await get(sim, '/openapi.json')).body.components.schemas.Project.properties).toHaveProperty(
      'backer_goal',
    );
    sim.setOpenApiTransform((doc) => ({ ...doc, info: { title: 'x', version: '9' } }));
    expect((await get(sim, '/openapi.json')).body.info.version).toBe('9');
    sim.setOpenApiTransform(null);
    sim.setOpenApiVariant('baseline');
    expect((await get(sim, '/openapi.json')).body).toEqual(baseline);
  });
});
