import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, SimulatorUsageError } from '../../src/simulator/index.js';
import { get, type Harness, projectSeed, startHarness, t0 } from './helpers.js';

let h: Harness;
let sim: Simulator;
let key: string;

const rewards = [
  { id: 1, title: 'Unlimited', price: 10 },
  { id: 2, title: 'Two left', price: 50, quantityTotal: 2 },
  { id: 3, title: 'Secret', price: 100, hiddenUntilGoalReached: true },
  { id: 4, title: 'Threshold', price: 20, unlockThreshold: 300 },
];

beforeEach(async () => {
  h = await startHarness({ projects: [projectSeed({ linkCaption: 'p', fundingThreshold: 1000, rewards })] });
  sim = h.sim;
  key = sim.issueProjectKey('p');
});
afterEach(() => sim.close());

const reward = async (id: number) => (await get(sim, `/project/p/incentive/${id}`, key)).body.data;

describe('supports, orders and rewards', () => {
  it('addSupporter creates a funding entry and a matching order and updates the totals', async () => {
    const p = sim.project('p');
    const fundingKey = p.addSupporter({
      displayName: 'Jürgen',
      rewardIds: [2, 1, 2],
      city: 'Köln',
      country: 'DE',
    });
    expect(fundingKey).toEqual({ supportTimestamp: Math.floor(t0 / 1000), userId: expect.any(Number) });
    const fundings = (await get(sim, '/project/p/fundings', key)).body;
    expect(fundings.data).toEqual([
      {
        support_timestamp: fundingKey.supportTimestamp,
        user: { id: fundingKey.userId, display_name: 'Jürgen' },
      },
    ]);
    const snapshot = p.snapshot();
    expect(snapshot.orders).toHaveLength(1);
    expect(snapshot.orders[0]).toMatchObject({
      support_timestamp: fundingKey.supportTimestamp,
      total_amount: 110,
      status_code: 'collected',
      bill_address: { city: 'Köln', country: 'DE' },
      ordered_incentives: [
        { id: 2, count: 2, price_single: 50, price_total: 100 },
        { id: 1, count: 1, price_single: 10, price_total: 10 },
      ],
    });
    const project = (await get(sim, '/project/p', key)).body.project;
    expect([project.current_funding, project.supporter_count]).toEqual([110, 1]);
  });

  it('sells a limited reward out when its remaining quantity hits 0; unlimited rewards keep the 999 placeholder', async () => {
    sim.project('p').addSupporter({ rewardIds: [2, 2, 1] });
    expect(await reward(2)).toMatchObject({ quantity_sold: 2, quantity_remaining: 0, is_available: false });
    expect(await reward(1)).toMatchObject({ quantity_total: 0, quantity_remaining: 999, is_available: true });
    expect(sim.project('p').history.some((e) => e.type === 'reward-sold-out' && e.rewardId === 2)).toBe(true);
    expect(() => sim.project('p').addSupporter({ rewardIds: [2] })).toThrow(SimulatorUsageError);
  });

  it('unlocks threshold and hidden-until-goal rewards when the funding crosses them', async () => {
    const p = sim.project('p');
    expect(await reward(4)).toMatchObject({ is_unlocked: false, funding_amount_until_unlock: 300 });
    expect(await reward(3)).toMatchObject({ is_unlocked: false, hidden_until_goal_reached: true });
    expect(() => p.addSupporter({ rewardIds: [3] })).toThrow(/locked/);
    p.addSupporter({ amount: 250 });
    expect((await reward(4)).funding_amount_until_unlock).toBe(50);
    p.addSupporter({ amount: 60 });
    expect(await reward(4)).toMatchObject({ is_unlocked: true, funding_amount_until_unlock: 0 });
    p.addSupporter({ amount: 700 });
    expect((await reward(3)).is_unlocked).toBe(true);
    const types = p.history.map((e) => e.type);
    expect(types.filter((t) => t === 'reward-unlocked')).toHaveLength(2);
    expect(types).toContain('goal-reached');
  });

  it('failSupport drops the support out of fundings, orders and totals and returns its rewards to stock', async () => {
    const p = sim.project('p');
    p.addSupporter({ amount: 1000 });
    h.clock.advance(5000);
    const failing = p.addSupporter({ rewardIds: [2, 2] });
    h.clock.advance(5000);
    p.addSupporter({ amount: 30 });
    p.failSupport(failing);
    const project = (await get(sim, '/project/p', key)).body.project;
    expect([project.current_funding, project.supporter_count]).toEqual([1030, 2]);
    const fundings = (await get(sim, '/project/p/fundings', key)).body;
    expect(fundings.meta.total).toBe(2);
    expect(fundings.data.map((f: { user: { id: number } }) => f.user.id)).not.toContain(failing.userId);
    const orders = (await get(sim, '/project/p/orders', key)).body;
    expect(orders.data.map((o: { total_amount: number }) => o.total_amount)).toEqual([30, 1000]);
    expect(await reward(2)).toMatchObject({ quantity_sold: 0, is_available: true });
    expect(p.snapshot().failedSupports).toEqual([failing]);
  });

  it('freezes supports after payoff', () => {
    const p = sim.project('p');
    const k = p.addSupporter({ amount: 1200 });
    p.setStatus('successful');
    p.payoff();
    expect(p.snapshot().project.process_status).toBe('payoff');
    expect(() => p.failSupport(k)).toThrow(/frozen/);
    expect(p.snapshot().orders).toHaveLength(1);
  });

  it('answers funding_not_successful for /orders below 100% of an all-or-nothing goal', async () => {
    sim.project('p').addSupporter({ amount: 999 });
    const below = await get(sim, '/project/p/orders', key);
    expect([below.status, below.body.error]).toEqual([403, 'funding_not_successful']);
    sim.project('p').addSupporter({ amount: 1 });
    expect((await get(sim, '/project/p/orders', key)).status).toBe(200);
  });

  it('serves the single reward with three variation groups: fixed choices and free text', async () => {
    sim.project('p').addReward({
      id: 9,
      title: 'Shirt',
      price: 30,
      variants: [
        { label: 'Size', choices: ['S', 'M'] },
        { label: 'Colour', choices: ['Red'] },
        { label: 'Name' },
      ],
    });
    const detail = await reward(9);
    expect(detail.variant_label_3).toBe('Name');
    expect(detail.variant_choices_3).toEqual([]);
    expect(detail.variant_choices_1.map((c: { name: string; group: number }) => [c.name, c.group])).toEqual([
      ['S', 1],
      ['M', 1],
    ]);
    const list = (await get(sim, '/project/p/incentives', key)).body.data;
    expect(list.find((r: { id: number }) => r.id === 9)).not.toHaveProperty('variant_label_1');
    const missing = await get(sim, '/project/p/incentive/12345', key);
    expect([missing.status, missing.body.error]).toEqual([404, 'not_found']);
  });

  it('lists wall posts newest first by default and oldest first when configured', async () => {
    const p = sim.project('p');
    const first = p.addWallPost({ message: 'one' });
    h.clock.advance(1000);
    const second = p.addWallPost({ message: 'two', authorName: '@everyone' });
    const ids = async () =>
      (await get(sim, '/project/p/wall', key)).body.data.map((w: { id: number }) => w.id);
    expect(await ids()).toEqual([second, first]);
    sim.listOrder = 'oldest-first';
    expect(await ids()).toEqual([first, second]);
    p.removeWallPost(first);
    expect(await ids()).toEqual([second]);
  });
});

describe('pagination', () => {
  beforeEach(() => {
    const p = sim.project('p');
    for (let i = 0; i < 130; i++) {
      p.addWallPost({ message: `m${i}` });
      h.clock.advance(1000);
    }
  });

  it.each([
    ['', 20, 0],
    ['?limit=0', 20, 0],
    ['?limit=', 20, 0],
    ['?limit=500', 100, 0],
    ['?limit=7&offset=', 7, 0],
    ['?limit=abc&offset=-3', 20, 0],
    ['?limit=10&offset=125', 10, 125],
  ])('%s applies limit %i offset %i without a 400', async (query, limit, offset) => {
    const res = await get(sim, `/project/p/wall${query}`, key);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 130, limit, offset });
    expect(res.body.data).toHaveLength(Math.min(limit, 130 - offset));
  });

  it('pages through a list without gaps or duplicates when nothing changes', async () => {
    const seen: number[] = [];
    for (let offset = 0; ; ) {
      const res = await get(sim, `/project/p/wall?limit=40&offset=${offset}`, key);
      seen.push(...res.body.data.map((w: { id: number }) => w.id));
      offset += res.body.data.length;
      if (offset >= res.body.meta.total) break;
    }
    expect(new Set(seen).size).toBe(130);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
  });
});
