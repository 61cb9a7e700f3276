/**
 * The chart's native canvas (@napi-rs/canvas) is loaded by the first chart drawn, not at the bot's start:
 * its load cost each process 40-80 ms of CPU and 0.3-0.6 s of wall time before its first poll (issue 33).
 * What a process has loaded is per process, so the check runs in a fresh one.
 */
import { describe, expect, it } from 'vitest';
import { runInFreshProcess } from '../support/fresh-tsx-process.js';

describe('the chart canvas', () => {
  it('is not loaded with the bot, and is loaded by the first chart drawn', () => {
    const result = runInFreshProcess(new URL('./scripts/canvas-at-start.ts', import.meta.url), 120_000) as {
      atStart: boolean;
      afterChart: boolean;
      pngBytes: number;
    };
    expect(result).toMatchObject({ atStart: false, afterChart: true });
    expect(result.pngBytes).toBeGreaterThan(1_000);
  }, 130_000);
});
