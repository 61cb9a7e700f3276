import { note } from '../../domain/engine-notes.js';
import { LeaseLostError } from '../../domain/errors.js';
import type { EventSink } from '../../domain/event-sink.js';
import type { FundbotEvent } from '../../domain/events.js';
import { type BackoffPolicy, backoffMs } from '../../lib/backoff.js';
import type { Clock } from '../../lib/clock.js';
import type { Random } from '../../lib/random.js';
import { noteError } from '../context/engine-project.js';
import type { EngineContext } from '../project/engine-context.js';
import type { ProjectRuntime } from '../project/project-runtime.js';
import type { ProjectState } from '../state/project-state.js';
import { commit, currentState } from '../state/project-state-store.js';

/** Retries of an in-order consumer: 5 s doubling to 10 minutes, spread so replicas do not retry in lockstep. */
export const deliveryBackoff: BackoffPolicy = { baseMs: 5_000, maxMs: 10 * 60_000, jitter: 'spread' };

/** Delivers events one at a time, in order; a throw keeps the event (and those after it) for a retry. */
export type Deliver = (event: FundbotEvent) => Promise<void>;

/**
 * Writes the outbox after delivery progress. When the store refuses the write, the
 * progress is kept in memory anyway: otherwise the same events would be offered again
 * at once, over and over (a full disk still allows reads). The next successful commit
 * persists it; a crash before that offers the same event ids again, which the sink's
 * ledger dedupes.
 */
export async function commitOutboxProgress(
  ctx: EngineContext,
  rt: ProjectRuntime,
  next: ProjectState,
): Promise<void> {
  try {
    await commit(ctx, rt, next, []);
  } catch (error) {
    // Another replica holds the project now: it delivers from the stored outbox; this one stops.
    if (error instanceof LeaseLostError) return;
    rt.state = next;
    noteError(rt, ctx.clock.now(), note('store-write-refused', {}));
    ctx.logger.error(
      { project: rt.config.linkCaption, err: error instanceof Error ? error.message : String(error) },
      'could not store delivery progress; continuing from memory',
    );
  }
}

/**
 * Offers the project's outbox to the sink and removes what it is done with, in ONE
 * commit however many events finished. The sink (the delivery pipeline) posts in the
 * background, channel by channel, so a slow or failing channel never holds this
 * project's polling; events it finished since the last run leave the outbox now.
 */
export async function offerOutbox(ctx: EngineContext, rt: ProjectRuntime, sink: EventSink): Promise<void> {
  for (;;) {
    const all = rt.state?.outbox.map((e) => e.event) ?? [];
    const events = sink.oneAtATime ? all.slice(0, 1) : all;
    if (events.length === 0) {
      // Nothing new, but the first offer since the state was loaded is made anyway: the sink takes up the
      // project's held work (a batch due while the process was down) now, not at the project's next event.
      if (!rt.sinkAdopted) await sink.offer(rt.config.linkCaption, [], true);
      rt.sinkAdopted = true;
      return;
    }
    const done = new Set(await sink.offer(rt.config.linkCaption, events, !rt.sinkAdopted));
    rt.sinkAdopted = true;
    if (done.size === 0) return;
    await rt.mutex.run(async () => {
      const state = await currentState(ctx, rt);
      await commitOutboxProgress(ctx, rt, {
        ...state,
        outbox: state.outbox.filter((e) => !done.has(e.event.id)),
      });
    });
    ctx.counters.eventsDelivered += done.size;
    if (!sink.oneAtATime) return;
  }
}

/** Offers the outbox of every project whose lease this replica holds. */
export async function drainOutbox(ctx: EngineContext, sink: EventSink): Promise<void> {
  await Promise.all(
    [...ctx.runtimes.values()]
      .filter((rt) => ctx.clock.now() < rt.leaseUntil)
      .map((rt) => offerOutbox(ctx, rt, sink)),
  );
}

/**
 * A sink over a plain in-order consumer (the benchmark's recorder, tests): events go
 * to `deliver` one at a time in outbox order; one that throws stops the project's
 * later events until its retry, after {@link deliveryBackoff} (kept in memory: a
 * restart retries at once).
 */
export function inOrderSink(
  deliver: Deliver,
  clock: Clock,
  random: Random,
  onFailure: (project: string, event: FundbotEvent, error: unknown) => void = () => {},
): EventSink {
  const failing = new Map<string, { attempts: number; retryAt: number }>();
  return {
    oneAtATime: true,
    async offer(project, events) {
      const done: string[] = [];
      for (const event of events) {
        const failed = failing.get(event.id);
        if (failed && failed.retryAt > clock.now()) break;
        try {
          await deliver(event);
        } catch (error) {
          const attempts = (failed?.attempts ?? 0) + 1;
          failing.set(event.id, {
            attempts,
            retryAt: clock.now() + backoffMs(deliveryBackoff, attempts, () => random.next()),
          });
          onFailure(project, event, error);
          break;
        }
        failing.delete(event.id);
        done.push(event.id);
      }
      return done;
    },
  };
}
