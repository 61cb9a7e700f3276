import * as wait from '../test/support/wait-until.js';

/**
 * Waits for a condition of a real-clock bench run, looking every 200 ms; a check that throws counts as not yet.
 * A bench goes on with what it has: after `timeoutMs` it logs that it gave up and resolves false.
 */
export async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  options: { readonly timeoutMs?: number; readonly log: (message: string) => void },
): Promise<boolean> {
  try {
    return await wait.waitUntil(what, check, {
      timeoutMs: options.timeoutMs ?? 60_000,
      everyMs: 200,
      onProbeError: 'retry',
    });
  } catch {
    options.log(`gave up waiting for ${what}`);
    return false;
  }
}
