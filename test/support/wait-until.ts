/**
 * The one way tests and benches wait for something outside them on the real clock (a child's log line, a fake's
 * recording, a server's /healthz, a replica taking its share): the condition is looked at again and again until
 * it holds or a deadline passes, never a fixed sleep. On a virtual clock, advance the clock instead.
 */

export interface WaitOptions {
  /** How long before the wait fails, naming what it waited for (default 15 s). */
  readonly timeoutMs?: number;
  /** How long between looks (default 25 ms); 0 looks again after each turn of the event loop. */
  readonly everyMs?: number;
  /**
   * What a probe that throws means: `fail` (default) ends the wait with that error at once (the child exited,
   * an assertion inside the probe); `retry` counts it as not yet (a server that is still starting or restarting),
   * and a timeout then names the last error.
   */
  readonly onProbeError?: 'fail' | 'retry';
}

/**
 * Resolves with the first value `probe` returns that is neither undefined nor false (a boolean probe resolves
 * with true); rejects after `timeoutMs` with "timed out after N ms waiting for <what>".
 */
export async function waitUntil<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  options: WaitOptions = {},
): Promise<T> {
  const { timeoutMs = 15_000, everyMs = 25, onProbeError = 'fail' } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      if (onProbeError === 'fail') throw error;
      lastError = error;
    }
    if (Date.now() > deadline) {
      const last = lastError === undefined ? '' : ` (the last look failed: ${String(lastError)})`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last}`);
    }
    await new Promise((resolve) => (everyMs === 0 ? setImmediate(resolve) : setTimeout(resolve, everyMs)));
  }
}

/**
 * How long a test waits for a child process it started (the bot's "fundbot is running", a script's answer):
 * `src/main.ts` under tsx starts in 5-10 s alone, and took 33 s on the 2-core CI machine with five test files,
 * the typecheck and the lint beside it. A limit that finds a child that does not start at all, not a speed target:
 * `npm run bench` times the start.
 */
export const processStartMs = 90_000;
