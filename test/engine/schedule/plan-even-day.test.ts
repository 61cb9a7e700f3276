import { describe, expect, it } from 'vitest';
import { runFor, t0, useEngineHarness } from '../harness.js';

const startHarness = useEngineHarness();

const minute = 60_000;
const endOfDay = Math.floor(t0 / 86_400_000 + 1) * 86_400_000;
const perDay = 4_000;

describe('the key budget spread over the rest of the day (virtual clock)', () => {
  it('spends what the plan says, every request of a poll planned (the blog poll reads two lists)', async () => {
    // A small day budget, so the blog's two lists are a fair part of the plan. Counted as one request a
    // poll, the blog's second list went unplanned (5 % over this plan): the re-plans paid for it from the
    // rest of the day, most of it in its last hours (the whole day's fundings reads drifted from 14.5 s
    // to 18 s after 19:00).
    const h = await startHarness({ limits: { perMinute: 120, perDay } });
    for (let i = 0; i < 10; i++) {
      h.project.addSupporter({ amount: 1 });
      await runFor(h, minute);
    }
    const keyRequests = (from: number, to: number) =>
      h.sim.requests.filter((r) => r.at >= from && r.at < to && r.status < 500 && r.credential === 'project')
        .length;
    const from = h.clock.now();
    const spendable = 0.85 * perDay - keyRequests(0, from);
    // A supporter a minute: a steady list, read at the plan's pace (no lull, no burst).
    for (let i = 0; i < 120; i++) {
      h.project.addSupporter({ amount: 1 });
      await runFor(h, minute);
    }
    const planned = (spendable * 120 * minute) / (endOfDay - from);
    const spent = keyRequests(from, h.clock.now());
    expect(spent / planned).toBeGreaterThan(0.97);
    expect(spent / planned).toBeLessThan(1.03);
    expect(h.sim.requests.filter((r) => r.status === 429)).toEqual([]);
  });
});
