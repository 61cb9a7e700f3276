/**
 * Defects a journey step meets today: those issue 23 lists, and one the journeys found. A step that meets one is
 * registered with `it.fails`, so it turns red the moment the fix lands; the lead then makes it an ordinary `it`.
 * Each names the defect and who fixes it.
 */
import { it, type TestContext } from 'vitest';

/**
 * Empty today: every defect issue 23 named, and the wall-burst count the journeys found, is fixed and its step is
 * an ordinary `it`. A newly found defect is named here until its fix lands.
 */
export const defects = {} as const satisfies Record<string, string>;

export type Defect = (typeof defects)[keyof typeof defects];

/**
 * Registers one journey step: `it`, or `it.fails` naming the defect that makes it fail today. Always sequential:
 * a journey's steps run in order even where its platforms run side by side (`describe.concurrent.each`).
 */
export function journeyStep(
  title: string,
  defect: Defect | undefined,
  fn: (context: TestContext) => Promise<void>,
  timeoutMs = 20_000,
): void {
  // JOURNEYS_SHOW_DEFECTS=1 runs the marked steps as plain tests, to read why each fails today.
  if (defect === undefined || process.env.JOURNEYS_SHOW_DEFECTS === '1') it.sequential(title, fn, timeoutMs);
  // Fails today because of the named defect; turns red when the fix lands: then make it an `it`.
  else it.sequential.fails(`${title} [fails today: ${defect}]`, fn, timeoutMs);
}
