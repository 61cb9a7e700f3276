import { afterEach, describe, expect, it } from 'vitest';
import { get, type Harness, projectSeed, startHarness } from './helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.sim.close();
  h = undefined;
});

const limits = {
  pro: { perMinute: 3, perDay: 5 },
  user: { perMinute: 2, perDay: 100 },
  public: { perMinute: 2, perDay: 100 },
};

describe('rate limits', () => {
  it('count per key in a fixed minute window of the injected clock, with the six headers', async () => {
    h = await startHarness({ projects: [projectSeed({ linkCaption: 'p' })], limits });
    const key = h.sim.issueProjectKey('p');
    const first = await get(h.sim, '/project/p', key);
    const minuteReset = Math.floor(h.clock.now() / 60_000 + 1) * 60;
    expect(Object.fromEntries([...first.headers].filter(([name]) => name.startsWith('x-ratelimit')))).toEqual(
      {
        'x-ratelimit-minute-limit': '3',
        'x-ratelimit-minute-remaining': '2',
        'x-ratelimit-minute-reset': String(minuteReset),
        'x-ratelimit-day-limit': '5',
        'x-ratelimit-day-remaining': '4',
        'x-ratelimit-day-reset': String(Math.floor(h.clock.now() / 86_400_000 + 1) * 86_400),
      },
    );
    await get(h.sim, '/project/p', key);
    await get(h.sim, '/project/p', key);
    const refused = await get(h.sim, '/project/p', key);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('rate_limit_exceeded');
    expect(refused.body.error_description).toContain('minute');
    expect(refused.headers.get('retry-after')).toBe(String(minuteReset - Math.floor(h.clock.now() / 1000)));
    expect(refused.body).not.toHaveProperty('retry_after');

    // Another key has its own bucket.
    expect((await get(h.sim, '/project/p', h.sim.issueProjectKey('p'))).status).toBe(200);

    h.clock.set(minuteReset * 1000);
    const next = await get(h.sim, '/project/p', key);
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-minute-remaining')).toBe('2');
    await get(h.sim, '/project/p', key);
    const dayRefused = await get(h.sim, '/project/p', key);
    expect(dayRefused.status).toBe(429);
    expect(dayRefused.body.error_description).toContain('day');
  });

  it('limit requests without a credential per IP with the X-RateLimit-Public- headers', async () => {
    h = await startHarness({ projects: [projectSeed({ linkCaption: 'p' })], limits });
    const first = await get(h.sim, '/project/p');
    expect(first.headers.get('x-ratelimit-public-minute-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-minute-limit')).toBeNull();
    await get(h.sim, '/project/p');
    expect((await get(h.sim, '/project/p')).status).toBe(429);
  });

  it('put basic and legacy project keys on the no-credential limits, and User keys on their own', async () => {
    h = await startHarness({ projects: [projectSeed({ linkCaption: 'p', plan: 'basic' })], limits });
    const basic = await get(h.sim, '/project/p', h.sim.issueProjectKey('p'));
    expect(basic.headers.get('x-ratelimit-minute-limit')).toBe('2');
    const legacy = await get(h.sim, '/project/p', h.sim.issueProjectKey('p', { plan: 'legacy' }));
    expect(legacy.headers.get('x-ratelimit-day-limit')).toBe('100');
    const user = await get(h.sim, '/user/me', h.sim.issueUserKey(7));
    expect(user.headers.get('x-ratelimit-minute-limit')).toBe('2');
  });

  it('use the spec defaults when not overridden', async () => {
    h = await startHarness({ projects: [projectSeed({ linkCaption: 'p', plan: 'premium' })] });
    const res = await get(h.sim, '/project/p', h.sim.issueProjectKey('p'));
    expect([res.headers.get('x-ratelimit-minute-limit'), res.headers.get('x-ratelimit-day-limit')]).toEqual([
      '300',
      '50000',
    ]);
  });
});
