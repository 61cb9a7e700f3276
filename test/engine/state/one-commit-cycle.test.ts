import { describe, expect, it } from 'vitest';
import { stateKeys } from '../../../src/engine/state/project-state.js';
import { refusableStore } from '../../support/refusable-store.js';
import { initialSupporters, lc, runFor, step, useEngineHarness } from '../harness.js';

const startHarness = useEngineHarness();

describe('a poll cycle is written as one commit', () => {
  it('the first cycle reads all five feeds and writes the state head once', async () => {
    const store = refusableStore();
    const h = await startHarness({ store, project: { supporters: initialSupporters(20) } });
    await step(h);
    expect(h.engine.metrics().polls).toBe(5);
    expect(store.writes.get(stateKeys.head(lc))).toBe(1);
    // The state written is the whole cycle's: a restart re-derives nothing.
    await h.engine.stop();
    h.engine = h.newEngine();
    h.project.addSupporter({ displayName: 'After Restart' });
    await runFor(h, 5 * 60_000);
    expect(h.recorder.ofType('supporter').map((e) => e.displayName)).toEqual(['After Restart']);
  });

  it('a cycle whose write fails is as if it never ran: nothing is offered, the feeds are read again, each supporter is delivered once', async () => {
    const store = refusableStore();
    const h = await startHarness({ store, project: { supporters: initialSupporters(20) } });
    await step(h); // baseline
    h.project.addSupporter({ displayName: 'Held Back' });
    store.refuseWrites = true;
    await runFor(h, 2 * 60_000);
    expect(h.recorder.events).toHaveLength(0);
    expect(h.engine.metrics().eventsEmitted).toBe(0);
    expect(h.logger.warnings).toContain('poll failed: retrying with backoff');

    store.refuseWrites = false;
    await runFor(h, 2 * 60_000);
    expect(h.recorder.ofType('supporter').map((e) => e.displayName)).toEqual(['Held Back']);
    await h.engine.stop();
    h.engine = h.newEngine();
    await runFor(h, 5 * 60_000);
    expect(h.recorder.ofType('supporter').map((e) => e.displayName)).toEqual(['Held Back']);
  });
});
