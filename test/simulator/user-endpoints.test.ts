import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostileLongText, hostileTexts, type Simulator } from '../../src/simulator/index.js';
import { get, projectSeed, startHarness } from './helpers.js';

let sim: Simulator;
let key: string;

beforeEach(async () => {
  ({ sim } = await startHarness({
    projects: [
      projectSeed({
        linkCaption: 'a',
        ownerId: 7,
        status: 'active',
        rewards: [
          { id: 1, title: 'Bravo', price: 30, favorite: true },
          { id: 2, title: 'Alpha', price: 10 },
          { id: 3, title: 'Hidden', price: 5, status: 'hidden' },
        ],
      }),
      projectSeed({
        linkCaption: 'b',
        ownerId: 9,
        team: [{ userId: 7, role: 'manager' }],
        status: 'successful',
        rewards: [{ id: 4, title: 'Charlie', price: 20, quantityTotal: 3 }],
      }),
      projectSeed({ linkCaption: 'c', ownerId: 9, rewards: [{ id: 5, title: 'Not mine', price: 1 }] }),
    ],
  }));
  key = sim.issueUserKey(7, { scopes: ['project:read'] });
  sim.project('b').addSupporter({ rewardIds: [4, 4] });
});
afterEach(() => sim.close());

const ids = async (query: string) =>
  (await get(sim, `/user/me/incentives${query}`, key)).body.data.map((r: { id: number }) => r.id);

describe('/user/me/incentives', () => {
  it('lists the enabled rewards of own and team projects, by sold count by default', async () => {
    expect(await ids('')).toEqual([4, 1, 2]);
  });

  it('sorts by price and name both ways', async () => {
    expect(await ids('?sort=price-a')).toEqual([2, 4, 1]);
    expect(await ids('?sort=price-d')).toEqual([1, 4, 2]);
    expect(await ids('?sort=name-a')).toEqual([2, 1, 4]);
    expect(await ids('?sort=name-d')).toEqual([4, 1, 2]);
    expect((await ids('?sort=rand')).sort()).toEqual([1, 2, 4]);
  });

  it('filters to fundable projects and favourites', async () => {
    expect(await ids('?fundable=true')).toEqual([1, 2]);
    expect(await ids('?is_favorite=1')).toEqual([1]);
    expect((await get(sim, '/user/me/incentives?fundable=maybe', key)).body.error).toBe('invalid_value');
  });

  it('carries the embedded project and availability fields', async () => {
    const item = (await get(sim, '/user/me/incentives?limit=1', key)).body;
    expect(item.meta).toEqual({ total: 3, limit: 1, offset: 0 });
    expect(item.data[0]).toEqual({
      id: 4,
      title: 'Charlie',
      price: 20,
      is_available: true,
      quantity_total: 3,
      quantity_remaining: 1,
      project: { id: expect.any(Number), title: 'Test project', link_caption: 'b' },
    });
  });
});

describe('hostileTexts', () => {
  it('covers pings, links, markup, invisible characters and a 5000-character string', () => {
    for (const text of [
      '@everyone',
      '@here',
      '<@123>',
      '<@&456>',
      '<!channel>',
      '<!here>',
      '# heading',
      '```code```',
    ]) {
      expect(hostileTexts).toContain(text);
    }
    expect(hostileTexts.some((t) => t.includes('<https://evil.example|click>'))).toBe(true);
    expect(hostileTexts.some((t) => t.includes('[x](https://evil.example)'))).toBe(true);
    expect(hostileTexts.some((t) => t.includes('<script>'))).toBe(true);
    expect(hostileTexts.some((t) => t.includes('\u200b'))).toBe(true);
    expect(hostileTexts.some((t) => t.includes('\u202e'))).toBe(true);
    expect(hostileTexts.some((t) => t.length === 5000)).toBe(true);
    expect(hostileLongText).toHaveLength(5000);
  });
});
