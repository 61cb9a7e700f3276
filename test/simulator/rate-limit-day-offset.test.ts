import { afterEach, describe, expect, it } from 'vitest';
import { parseRateBudget } from '../../src/api/rate-budget.js';
import { get, type Harness, projectSeed, startHarness } from './helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.sim.close();
  h = undefined;
});

const limits = { pro: { perMinute: 100, perDay: 2 } };
const hourMs = 3_600_000;

describe('rate-limit day shifted before midnight (rateLimitDayOffsetMs)', () => {
  it('resets the day budget that long before each UTC midnight and says so in the reset header', async () => {
    h = await startHarness({
      projects: [projectSeed({ linkCaption: 'p' })],
      limits,
      rateLimitDayOffsetMs: 3 * hourMs,
    });
    const key = h.sim.issueProjectKey('p');
    const dayStart = (Math.floor((h.clock.now() + 3 * hourMs) / 86_400_000) + 1) * 86_400_000 - 3 * hourMs;
    const first = await get(h.sim, '/project/p', key);
    expect(first.headers.get('x-ratelimit-day-reset')).toBe(String(dayStart / 1000));
    await get(h.sim, '/project/p', key);
    expect((await get(h.sim, '/project/p', key)).status).toBe(429);

    // 21:00 UTC the day before the midnight: a new day of the budget.
    h.clock.set(dayStart);
    const next = await get(h.sim, '/project/p', key);
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-day-remaining')).toBe('1');
    expect(next.headers.get('x-ratelimit-day-reset')).toBe(String((dayStart + 86_400_000) / 1000));
  });

  it('keeps the reset header a whole UNIX second when the offset is not, so the client reads the budget', async () => {
    // bench/scale-sim.ts shifts by Date.now()'s milliseconds: "…210.123" read as no budget at all, and the
    // bot planned every key to the real UTC midnight instead of the simulator's day.
    const offset = 3 * hourMs + 123;
    h = await startHarness({
      projects: [projectSeed({ linkCaption: 'p' })],
      limits,
      rateLimitDayOffsetMs: offset,
    });
    const reply = await get(h.sim, '/project/p', h.sim.issueProjectKey('p'));
    const reset = reply.headers.get('x-ratelimit-day-reset') ?? '';
    expect(reset).toMatch(/^\d+$/);
    const dayStart = (Math.floor((h.clock.now() + 3 * hourMs) / 86_400_000) + 1) * 86_400_000 - 3 * hourMs;
    expect(Number(reset) * 1000).toBe(dayStart);
    const budget = parseRateBudget(Object.fromEntries(reply.headers), h.clock.now());
    expect(budget?.dayResetAt).toBe(dayStart);
    expect(budget?.dayRemaining).toBe(1);
  });
});
