/**
 * A project loaded by this process (a start, a restart, a lease taken over) is offered to the sink once even
 * when its outbox is empty: the delivery pipeline takes up what it keeps for the project (a batch held for
 * pacing whose window ended while the process was down) then, not at the project's next supporter, which may
 * be hours away. Found by chaos seed 9 (test/chaos/failed-seeds.ts): a kill -9 as a batch went out, and the
 * restarted bot never posted it.
 */
import { describe, expect, it } from 'vitest';
import type { EventSink } from '../../../src/domain/event-sink.js';
import type { FundbotEvent } from '../../../src/domain/events.js';
import { runFor, useEngineHarness } from '../harness.js';

/** A sink that keeps every offer: the project, how many events it carried, and whether it said "adopting". */
function recordingSink(): EventSink & {
  readonly offers: { project: string; events: number; adopting?: true }[];
} {
  const offers: { project: string; events: number; adopting?: true }[] = [];
  return {
    offers,
    async offer(project, events: readonly FundbotEvent[], adopting?: boolean) {
      offers.push({ project, events: events.length, ...(adopting ? { adopting: true as const } : {}) });
      return events.map((e) => e.id);
    },
  };
}

describe('the sink takes up a project the engine loaded', () => {
  const startHarness = useEngineHarness();

  it('is offered the project once with nothing in the outbox, at each start, and not again on quiet runs', async () => {
    const h = await startHarness();
    const first = recordingSink();
    h.engine = h.newEngine({ sink: first });
    await runFor(h, 5 * 60_000);
    expect(first.offers).toEqual([{ project: 'solar-kiosk', events: 0, adopting: true }]);

    // A restart on the same store: the new process is told of the project again, once.
    const second = recordingSink();
    h.engine = h.newEngine({ sink: second });
    await runFor(h, 5 * 60_000);
    expect(second.offers).toEqual([{ project: 'solar-kiosk', events: 0, adopting: true }]);
  });

  it('an offer with events counts as the hand-over: no extra empty offer after it', async () => {
    const h = await startHarness();
    const sink = recordingSink();
    h.engine = h.newEngine({ sink });
    await runFor(h, 60_000);
    h.project.addSupporter({ displayName: 'Ada' });
    await runFor(h, 5 * 60_000);
    expect(sink.offers.filter((o) => o.events === 0)).toHaveLength(1);
    expect(sink.offers.filter((o) => o.events > 0).map((o) => o.events)).toEqual([1]);
    // Only the first offer after the load says "adopting" (the sink reads what it keeps for the project again).
    expect(sink.offers.filter((o) => o.adopting)).toHaveLength(1);
  });
});
