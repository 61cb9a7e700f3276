/**
 * When the chaos world may move its clock: nothing that runs without the clock is still running. Everything in a
 * seed is in this process except the simulator (real HTTP on 127.0.0.1), so the world waits for its answers,
 * then lets the event loop turn until a few turns pass in which
 * nothing happened (no store operation, no platform request, no API call, no new timer).
 */
import { ManualClock } from '../../support/manual-clock.js';

/** The world's clock, counting the timers set on it (a new timer is progress). */
export class ChaosClock extends ManualClock {
  sleeps = 0;
  override sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps += 1;
    return super.sleep(ms, signal);
  }
}

export interface Quiet {
  /** A counter that grows with every step anything takes (store operations, requests, timers). */
  readonly progress: () => number;
  /** Real exchanges still on their way (running processes' API calls to the simulator). */
  readonly pending: () => Promise<unknown>[];
}

/** How long a real exchange (an API call to the simulator) may take before the world gives up. */
const realWaitLimitMs = 30_000;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function settle(clock: ChaosClock, quiet: Quiet, turnsWithoutProgress = 3): Promise<void> {
  let calm = 0;
  let seen = -1;
  for (let round = 0; round < 100_000; round += 1) {
    const pending = quiet.pending();
    if (pending.length > 0) {
      // Real exchanges end within real seconds; one that does not is a hang of the world, said out loud.
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise<'stuck'>((resolve) => {
        timer = setTimeout(() => resolve('stuck'), realWaitLimitMs);
      });
      const outcome = await Promise.race([Promise.all(pending).then(() => 'done' as const), stuck]);
      clearTimeout(timer);
      if (outcome === 'stuck')
        throw new Error(
          `the chaos world waited ${realWaitLimitMs / 1000} s of real time for ${pending.length} exchange(s) that never ended`,
        );
      calm = 0;
      continue;
    }
    await turn();
    const now = quiet.progress() + clock.sleeps;
    if (now === seen) {
      calm += 1;
      if (calm >= turnsWithoutProgress) return;
    } else {
      calm = 0;
      seen = now;
    }
  }
  throw new Error('the chaos world never settled: something keeps running without the clock');
}
