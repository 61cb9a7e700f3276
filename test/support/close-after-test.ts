import { onTestFinished } from 'vitest';

/**
 * `close`s `thing` (a simulator, a fake, a store) when the current test ends, pass or fail, after whatever the
 * test started later: call it right where the test starts it, `const sim = closeAfterTest(await startSimulator())`.
 */
export function closeAfterTest<T extends { close(): Promise<unknown> | unknown }>(thing: T): T {
  onTestFinished(async () => {
    await thing.close();
  });
  return thing;
}
