import { type BackoffPolicy, backoffMs } from '../lib/backoff.js';
import type { EngineContext } from './engine-context.js';

/** After a failed cycle: 1 s doubling to 60 s, no jitter (one loop per process). */
const failedCycleBackoff: BackoffPolicy = { baseMs: 1_000, maxMs: 60_000, jitter: 'none' };

/** The real-time loop: run what is due, sleep until the next due time, until stopped. */
export interface EngineLoop {
  start(): void;
  /** Resolves after the cycle in flight has finished. */
  stop(): Promise<void>;
  /** Ends the current sleep early: something became due sooner than planned (an operator action). */
  wake(): void;
}

export function engineLoop(
  ctx: EngineContext,
  cycle: { runDue(): Promise<void>; nextDueAt(): number },
): EngineLoop {
  const { clock, logger } = ctx;
  let loop: Promise<void> | null = null;
  let abort: AbortController | null = null;
  let nap: AbortController | null = null;
  return {
    start() {
      if (loop !== null) return;
      const controller = new AbortController();
      abort = controller;
      loop = (async () => {
        let failedCycles = 0;
        while (!controller.signal.aborted) {
          try {
            await cycle.runDue();
            failedCycles = 0;
          } catch (error) {
            failedCycles += 1;
            logger.error(
              { err: error instanceof Error ? error.message : String(error), failedCycles },
              'engine cycle failed',
            );
          }
          if (controller.signal.aborted) break;
          // After a failed cycle nothing may be "due" any later than before: back off.
          const backoff =
            failedCycles > 0 ? backoffMs(failedCycleBackoff, failedCycles, () => ctx.random.next()) : 0;
          const wait = Math.max(backoff, cycle.nextDueAt() - clock.now());
          nap = new AbortController();
          try {
            await clock.sleep(wait, AbortSignal.any([controller.signal, nap.signal]));
          } catch {
            if (controller.signal.aborted) break;
            // Woken early: run the next cycle now.
          }
        }
      })();
    },
    wake() {
      nap?.abort(new Error('woken'));
    },
    async stop() {
      abort?.abort(new Error('engine stopped'));
      await loop;
      loop = null;
      abort = null;
    },
  };
}
