import { type Clock, systemClock } from '../src/lib/clock.js';

/**
 * Real time, shifted so the run starts just after a UTC midnight, for the bot and the
 * simulator alike. A key's planner spreads what is left of its day budget to the reset
 * (budget-plan.ts): started at 23:00 UTC with a fresh budget, 1,000 Pro keys would be
 * planned at the minute limit (about 1,700 requests a second in all) for the last hour,
 * and the figure would depend on when the bench ran. After midnight the plan is the
 * whole day's pace, the one the process keeps all day long.
 */
export function shiftedToAfterMidnight(offsetMs: number): Clock {
  return { now: () => Date.now() + offsetMs, sleep: (ms, signal) => systemClock.sleep(ms, signal) };
}
