import { type Clock, systemClock } from '../lib/clock.js';
import type { Logger } from './logger.js';

/** The part of `process` shutdown needs: tests pass an EventEmitter. */
export interface SignalSource {
  on(event: string, listener: () => void): unknown;
  off(event: string, listener: () => void): unknown;
}

/** One stage of shutting down, e.g. "stop pollers after the cycle in flight". */
export interface ShutdownStep {
  readonly name: string;
  stop(): Promise<void>;
  /** A shorter bound for this step; it never gets more than what is left of the total budget. */
  readonly timeoutMs?: number;
}

export interface GracefulShutdownOptions {
  /** Usually `process`. */
  readonly signals: SignalSource;
  /**
   * Run in this order. The intended order for fundbot: stop accepting commands →
   * stop pollers after the cycle in flight → finish deliveries in flight →
   * flush/close the store → close servers (ops server last, so health stays visible).
   */
  readonly steps: readonly ShutdownStep[] | (() => readonly ShutdownStep[]);
  /**
   * Budget for ALL steps together (default 8 s: Docker sends SIGKILL 10 s after SIGTERM, and the
   * process needs a moment to exit). A step is bounded by what is left of it; once it is spent,
   * the remaining steps are given up on.
   */
  readonly totalTimeoutMs?: number;
  readonly logger: Logger;
  /** Usually `process.exit`. */
  readonly exit: (code: number) => void;
  /** Measures the budget. Default: the system clock. */
  readonly clock?: Clock;
  /** Default SIGINT and SIGTERM. */
  readonly signalNames?: readonly string[];
}

export interface GracefulShutdown {
  /**
   * Starts shutting down (also without a signal, e.g. after a fatal error).
   * Idempotent: later calls return the same promise. Resolves with the exit code
   * after `exit` was called.
   */
  shutdown(reason: string): Promise<number>;
  /** True once shutdown started. */
  readonly stopping: boolean;
  /** Removes the signal listeners (tests; a process that hands shutdown to someone else). */
  uninstall(): void;
}

class StepTimeout extends Error {}

/**
 * On the first SIGINT/SIGTERM, runs `steps` one after the other within one total
 * budget, then calls `exit(0)`, or `exit(1)` when a step failed, timed out or was
 * given up on. A failing step does not stop the later ones: the store must still be
 * closed when a chat client fails. A hanging step only uses up the budget, so the
 * whole shutdown never outlasts `totalTimeoutMs`. A second signal while stopping is
 * the operator insisting: `exit(1)` at once.
 */
export function installGracefulShutdown(options: GracefulShutdownOptions): GracefulShutdown {
  const { signals, logger, exit } = options;
  const clock = options.clock ?? systemClock;
  const signalNames = options.signalNames ?? ['SIGINT', 'SIGTERM'];
  let running: Promise<number> | undefined;
  let exited = false;

  const finish = (code: number) => {
    if (exited) return;
    exited = true;
    exit(code);
  };

  async function runSteps(reason: string): Promise<number> {
    const total = options.totalTimeoutMs ?? 8_000;
    // Read when the signal arrives: a process installs shutdown before it has started anything.
    const steps = typeof options.steps === 'function' ? options.steps() : options.steps;
    const deadline = clock.now() + total;
    logger.info({ reason, steps: steps.map((s) => s.name), budgetMs: total }, 'shutting down');
    let code = 0;
    for (const step of steps) {
      const left = deadline - clock.now();
      if (left <= 0) {
        code = 1;
        logger.error({ step: step.name, budgetMs: total }, 'shutdown budget spent: giving up on this step');
        continue;
      }
      const timeoutMs = Math.min(step.timeoutMs ?? left, left);
      const startedAt = clock.now();
      const timer = new AbortController();
      try {
        await Promise.race([
          // A step that throws synchronously is a failed step, not a crashed shutdown.
          Promise.resolve().then(() => step.stop()),
          clock.sleep(timeoutMs, timer.signal).then(
            () => {
              throw new StepTimeout(`did not finish within ${timeoutMs} ms`);
            },
            () => undefined, // aborted because the step finished first
          ),
        ]);
        logger.info({ step: step.name, ms: clock.now() - startedAt }, 'shutdown step done');
      } catch (error) {
        code = 1;
        if (error instanceof StepTimeout) {
          logger.error({ step: step.name, timeoutMs }, 'shutdown step timed out: going on with the next one');
        } else {
          logger.error({ step: step.name, err: error }, 'shutdown step failed: going on with the next one');
        }
      } finally {
        // Cancels the pending sleep so no timer keeps the process (or a ManualClock) waiting.
        timer.abort(new Error('step finished'));
      }
    }
    logger.info({ code }, code === 0 ? 'shutdown complete' : 'shutdown finished with errors');
    finish(code);
    return code;
  }

  const shutdown = (reason: string): Promise<number> => {
    running ??= runSteps(reason);
    return running;
  };

  const listeners = signalNames.map((name) => {
    const listener = () => {
      if (running === undefined) {
        void shutdown(name);
        return;
      }
      logger.warn({ signal: name }, 'second signal while shutting down: exiting now');
      finish(1);
    };
    signals.on(name, listener);
    return { name, listener };
  });

  return {
    shutdown,
    get stopping() {
      return running !== undefined;
    },
    uninstall() {
      for (const { name, listener } of listeners) signals.off(name, listener);
    },
  };
}
