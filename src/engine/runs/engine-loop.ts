import type { EngineContext } from '../project/engine-context.js';

/** The real-time loop: start what is due, sleep until the next due time or a finished run, until stopped. */
export interface EngineLoop {
  start(): void;
  /** Resolves after every run in flight has finished. */
  stop(): Promise<void>;
  /** Ends the current sleep early: something became due sooner than planned (an operator action, a finished run). */
  wake(): void;
}

/** Why a sleep of the loop ended early: the same object every time (see wake). */
const woken = new Error('woken: something became due');

/**
 * Each project runs on its own: the loop only starts due projects (ProjectRuns
 * bounds how many at once and backs off a failing project alone) and never waits
 * for a run, so one slow request delays only its own project.
 */
export function engineLoop(
  ctx: EngineContext,
  runs: { startDue(): void; nextDueAt(): number; idle(): Promise<void> },
): EngineLoop {
  const { clock, logger } = ctx;
  let loop: Promise<void> | null = null;
  let abort: AbortController | null = null;
  let nap: AbortController | null = null;
  let wakeRequested = false;
  return {
    start() {
      if (loop !== null) return;
      const controller = new AbortController();
      abort = controller;
      loop = (async () => {
        while (!controller.signal.aborted) {
          wakeRequested = false;
          try {
            runs.startDue();
          } catch (error) {
            // startDue itself does no I/O; a throw here is a bug: log it and keep the loop alive.
            logger.error(
              { err: error instanceof Error ? error.message : String(error) },
              'engine loop failed',
            );
          }
          if (controller.signal.aborted) break;
          // A run that finished while starting the others: look again at once.
          if (wakeRequested) continue;
          const wait = Math.max(0, runs.nextDueAt() - clock.now());
          // One signal per sleep, aborted by wake() or stop(). Not AbortSignal.any with the loop's
          // long-lived signal: on Node 20 every call leaves a dependent signal on it for good
          // (1,000,000 sleeps kept 52 MB; nodejs/node#55351), and the loop sleeps many times a second.
          nap = new AbortController();
          try {
            await clock.sleep(wait, nap.signal);
          } catch {
            if (controller.signal.aborted) break;
            // Woken early: start what is due now.
          }
        }
        await runs.idle();
      })();
    },
    wake() {
      // Every finished run wakes the loop, hundreds a second at 1,000 projects: one abort per sleep, and one
      // reason for all of them (a new Error each time, stack and all, was 1-2% of a replica's CPU).
      if (wakeRequested) return;
      wakeRequested = true;
      nap?.abort(woken);
    },
    async stop() {
      abort?.abort(new Error('engine stopped'));
      nap?.abort(new Error('engine stopped'));
      await loop;
      loop = null;
      abort = null;
    },
  };
}
