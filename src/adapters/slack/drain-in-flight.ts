import type { Clock } from '../../lib/clock.js';

/**
 * Waits for the commands still being answered when the receiver stops, at most
 * `timeoutMs`: a shutdown neither cuts an answer short nor hangs on a stuck one.
 */
export async function drainInFlight(
  inFlight: ReadonlySet<Promise<unknown>>,
  clock: Clock,
  timeoutMs: number,
): Promise<void> {
  if (inFlight.size === 0) return;
  const drained = new AbortController();
  await Promise.race([
    Promise.allSettled([...inFlight]),
    clock.sleep(timeoutMs, drained.signal).catch(() => {}),
  ]);
  drained.abort();
}
