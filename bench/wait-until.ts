/** Waits for a condition of a real-clock bench run, looking every 200 ms; a check that throws counts as not yet. */
export async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  options: { readonly timeoutMs?: number; readonly log: (message: string) => void },
): Promise<boolean> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (
    !(await Promise.resolve()
      .then(check)
      .catch(() => false))
  ) {
    if (Date.now() > deadline) {
      options.log(`gave up waiting for ${what}`);
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return true;
}
