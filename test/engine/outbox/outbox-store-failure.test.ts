import { describe, expect, it } from 'vitest';
import type { FundbotEvent } from '../../../src/engine/index.js';
import { refusableStore } from '../../support/refusable-store.js';
import { initialSupporters, runFor, step, useEngineHarness } from '../harness.js';

const startHarness = useEngineHarness();

describe('outbox when the state store refuses writes', () => {
  it('a delivered event whose removal cannot be stored is not delivered again and again', async () => {
    const store = refusableStore();
    const h = await startHarness({ store, project: { supporters: initialSupporters(20) } });
    const harness = h;
    await step(harness); // baseline
    const delivered: FundbotEvent[] = [];
    harness.engine = harness.newEngine({
      deliver: async (event) => {
        delivered.push(event);
        // The first post goes out, then the write that removes it from the outbox fails.
        if (delivered.length === 1) store.refuseWrites = true;
      },
    });
    harness.project.addSupporter({ displayName: 'Once Only' });
    await runFor(harness, 10 * 60_000);
    const once = delivered.filter((e) => e.type === 'supporter');
    expect(once).toHaveLength(1);
    expect(harness.engine.metrics().eventsDelivered).toBeGreaterThanOrEqual(1);

    // The store recovers: the next commit persists the removal, so a restart does not deliver it again.
    store.refuseWrites = false;
    harness.project.addSupporter({ displayName: 'After Recovery' });
    await runFor(harness, 2 * 60_000);
    await harness.engine.stop();
    const afterRestart: FundbotEvent[] = [];
    harness.engine = harness.newEngine({ deliver: async (event) => void afterRestart.push(event) });
    await runFor(harness, 2 * 60_000);
    expect(afterRestart.filter((e) => e.type === 'supporter')).toHaveLength(0);
    expect(
      delivered.filter((e) => e.type === 'supporter').map((e) => e.type === 'supporter' && e.displayName),
    ).toEqual(['Once Only', 'After Recovery']);
  });
});
