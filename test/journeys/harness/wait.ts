/**
 * Waiting on something outside the test (a child's log line, a fake's recording, the simulator's request log)
 * with a deadline: the condition is checked every few milliseconds, never a fixed sleep.
 */

const checkEveryMs = 25;

/**
 * Resolves with the first value `probe` returns that is neither undefined nor false; rejects after `timeoutMs`
 * naming `what`. A probe that throws fails the wait at once (e.g. the child exited).
 */
export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, checkEveryMs));
  }
}

/** Resolves once the wall clock has passed `epochMs` (a minute boundary a schedule depends on). */
export function untilClockPasses(epochMs: number): Promise<true> {
  return waitFor(() => Date.now() > epochMs, `the clock to pass ${new Date(epochMs).toISOString()}`, 70_000);
}
