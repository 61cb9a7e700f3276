import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { watchPollingCeiling } from '../../src/app/watch-polling-ceiling.js';
import type { ProcessCeiling } from '../../src/engine/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { recordingLogger } from '../support/recording-logger.js';

const binding: ProcessCeiling = {
  perSecond: 303,
  source: 'sized',
  keysPerSecond: 490.2,
  keys: 5_000,
  binds: true,
};
const keysPace: ProcessCeiling = { ...binding, keysPerSecond: 115.7, keys: 1_000, binds: false };

describe('the polling ceiling watch (issue 33: a ceiling that speaks)', () => {
  it('says once, after a minute, that the ceiling sets the pace, and what to do; /healthz, /status and the metrics at once', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 29, 6, 0, 0));
    const logger = recordingLogger();
    const registry = new Registry();
    let ceiling: ProcessCeiling | undefined;
    const watch = watchPollingCeiling({ ceiling: () => ceiling, clock, logger, registry });
    try {
      expect(watch.checks()).toEqual({}); // the engine is not wired yet
      ceiling = binding;
      const check = watch.checks()['polling-ceiling'];
      expect(check?.ok).toBe(true); // slower than the keys allow, not broken: no restart loop
      expect(check?.detail).toMatch(
        /sets the pace, not the keys: their plans would poll 490.2 requests a second/,
      );
      expect(check?.detail).toMatch(
        /at most 303 \(engine.maxRequestsPerSecond unset: sized from the keys' plans/,
      );
      expect(check?.detail).toMatch(/add a replica/);
      expect(watch.notes()).toEqual([
        { cause: 'polling-ceiling', detail: "its keys' plans 490.2 requests a second, its ceiling 303" },
      ]);
      const metrics = await registry.metrics();
      expect(metrics).toMatch(/^fundbot_polling_ceiling_binds 1$/m);
      expect(metrics).toMatch(/^fundbot_polling_ceiling_requests_per_second 303$/m);
      expect(metrics).toMatch(/^fundbot_polling_keys_requests_per_second 490.2$/m);

      // The log waits for the state to hold a minute (a pace that touches the ceiling for a moment says nothing).
      for (let s = 0; s < 45; s += 15) {
        await clock.untilSleepers(1);
        clock.advance(15_000);
      }
      await clock.untilSleepers(1);
      expect(logger.records.filter((r) => r.level === 'warn')).toHaveLength(0);
      for (let s = 0; s < 120; s += 15) {
        await clock.untilSleepers(1);
        clock.advance(15_000);
      }
      await clock.untilSleepers(1);
      const warned = logger.records.filter((r) => r.level === 'warn');
      expect(warned).toHaveLength(1); // one line, not one per check
      expect(warned[0]?.msg).toMatch(/sets the pace.*add a replica/);
      expect(warned[0]?.fields).toEqual({ ceilingPerSecond: 303, keysPerSecond: 490.2, keys: 5_000 });

      ceiling = keysPace;
      expect(watch.notes()).toEqual([]);
      expect(watch.checks()['polling-ceiling']?.detail).toMatch(
        /^the keys set the pace: their plans poll 115.7/,
      );
      expect(await registry.metrics()).toMatch(/^fundbot_polling_ceiling_binds 0$/m);
      for (let s = 0; s < 90; s += 15) {
        await clock.untilSleepers(1);
        clock.advance(15_000);
      }
      await clock.untilSleepers(1);
      expect(logger.records.filter((r) => r.level === 'info').map((r) => r.msg)).toEqual([
        "the polling ceiling no longer sets the pace: the keys' plans do",
      ]);
    } finally {
      watch.stop();
    }
  });
});
