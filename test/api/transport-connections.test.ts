import { Agent } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, parseUserKey, type ResponseInfo } from '../../src/api/index.js';
import { aList } from './helpers/builders.js';
import { json } from './helpers/tiny-server.js';
import { cleanups, client, closeAll, fixed, key, SECRET, server } from './helpers/transport-setup.js';

afterEach(closeAll);

describe('transport', () => {
  it('connections are pooled and kept alive across requests', async () => {
    const s = await server((_req, res) => json(res, 200, aList([])));
    const api = client(s.url);
    for (let i = 0; i < 10; i++) await api.project('p', key).wallPage();
    expect(s.requests).toHaveLength(10);
    // The pool may open a second socket while the first is finishing; it never opens one per request.
    expect(s.connections()).toBeLessThanOrEqual(2);
  });

  it('the metrics hook gets method, path template, status, duration, credential and attempt, never the key', async () => {
    const infos: ResponseInfo[] = [];
    const s = await server((_req, res, index) =>
      index === 0 ? json(res, 500, { error: 'x', error_description: null }) : json(res, 200, aList([])),
    );
    await client(s.url, { random: fixed(0), onResponse: (info) => infos.push(info) })
      .project('p', key)
      .wallPage();
    expect(infos.map(({ durationMs, ...rest }) => rest)).toEqual([
      {
        method: 'GET',
        path: '/project/{link_caption}/wall',
        endpoint: 'wall',
        status: 500,
        credential: 'project',
        attempt: 1,
        hedge: false,
      },
      {
        method: 'GET',
        path: '/project/{link_caption}/wall',
        endpoint: 'wall',
        status: 200,
        credential: 'project',
        attempt: 2,
        hedge: false,
      },
    ]);
    expect(infos.every((i) => i.durationMs >= 0)).toBe(true);
    expect(JSON.stringify(infos)).not.toContain(SECRET);
  });

  it('a throwing metrics hook does not break requests', async () => {
    const s = await server((_req, res) => json(res, 200, aList([])));
    const page = await client(s.url, {
      onResponse: () => {
        throw new Error('metrics down');
      },
    })
      .project('p', key)
      .wallPage();
    expect(page.items).toEqual([]);
  });

  it('paging and filter parameters are sent as the spec names them', async () => {
    const s = await server((_req, res) => json(res, 200, aList([])));
    const api = client(s.url);
    await api
      .project('solar kiosk/ä', key)
      .blogPage({ limit: 100, offset: 40, blogType: 'story', includeSupporterOnly: true });
    await api
      .user(parseUserKey('svc_user_abcdef'))
      .incentivesPage({ sort: 'price-d', fundable: true, isFavorite: false });
    await api.user(parseUserKey('svc_user_abcdef')).projectsPage({ sort: 'project-title-a', limit: 0 });
    expect(s.requests.map((r) => r.url)).toEqual([
      '/project/solar%20kiosk%2F%C3%A4/blog?blog_type=story&include_supporter_only=1&limit=100&offset=40',
      '/user/me/incentives?sort=price-d&fundable=1&is_favorite=0',
      '/user/me/projects?sort=project-title-a&limit=0',
    ]);
  });

  it('a base URL with a path prefix is kept', async () => {
    const s = await server((_req, res) => json(res, 200, aList([])));
    await client(`${s.url}/api/v1/`).project('p', key).wallPage();
    expect(s.requests[0]?.url).toBe('/api/v1/project/p/wall');
  });

  it('close() closes the own Agent but never an agent passed in', async () => {
    const s = await server((_req, res) => json(res, 200, aList([])));
    const shared = new Agent({ keepAlive: true });
    cleanups.push(async () => shared.destroy());
    const borrowing = createApiClient({ baseUrl: s.url, agent: shared });
    await borrowing.project('p', key).wallPage();
    await borrowing.close();
    // The borrowed agent still holds its idle keep-alive connection: close() left it alone.
    expect(Object.values(shared.freeSockets).flat()).toHaveLength(1);
    await expect(borrowing.project('p', key).wallPage()).rejects.toThrow(/closed/);
  });

  it('without a key a project handle offers only get() (the public view)', () => {
    const api = createApiClient({ baseUrl: 'http://127.0.0.1:9' });
    cleanups.push(() => api.close());
    const publicView = api.project('p');
    // @ts-expect-error lists need a Project API key
    expect(publicView.wallPage).toBeUndefined();
    expect(Object.keys(publicView).sort()).toEqual(['get', 'linkCaption']);
  });
});
