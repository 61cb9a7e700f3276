import { note } from '../domain/engine-notes.js';
import { LeaseLostError } from '../domain/errors.js';
import type { FundbotEvent } from '../domain/events.js';
import { type BackoffPolicy, backoffMs } from '../lib/backoff.js';
import type { EngineContext } from './engine-context.js';
import { noteError, type ProjectRuntime } from './project-runtime.js';
import type { ProjectState } from './project-state.js';
import { commit, currentState } from './project-state-store.js';

/** Delivery retries: 5 s doubling to 10 minutes, spread so replicas do not retry in lockstep. */
export const deliveryBackoff: BackoffPolicy = { baseMs: 5_000, maxMs: 10 * 60_000, jitter: 'spread' };

/** Delivers events; a throw keeps the event for a retry. */
export type Deliver = (event: FundbotEvent) => Promise<void>;

/**
 * Writes the outbox after a delivery attempt. When the store refuses the write, the
 * progress is kept in memory anyway: otherwise the loop would deliver the same event
 * again at once, over and over (a full disk still allows reads). The next successful
 * commit persists it; a crash before that re-delivers the same event id once, which the
 * delivery contract allows.
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
 * Delivers the project's outbox in order until it is empty, its head waits for a
 * retry, or a delivery fails (then the head's retry is scheduled with backoff).
 * One store write per delivered event.
 */
export async function drainProject(ctx: EngineContext, rt: ProjectRuntime, deliver: Deliver): Promise<void> {
  const { clock } = ctx;
  for (;;) {
    const head = rt.state?.outbox[0];
    if (head === undefined || head.nextAttemptAt > clock.now()) return;
    try {
      await deliver(head.event);
    } catch (error) {
      ctx.counters.deliveryFailures += 1;
      const message = error instanceof Error ? error.message : String(error);
      await rt.mutex.run(async () => {
        const state = await currentState(ctx, rt);
        const outbox = state.outbox.map((e) =>
          e.event.id === head.event.id
            ? {
                ...e,
                attempts: e.attempts + 1,
                nextAttemptAt:
                  clock.now() + backoffMs(deliveryBackoff, e.attempts + 1, () => ctx.random.next()),
                lastError: message.slice(0, 300),
              }
            : e,
        );
        await commitOutboxProgress(ctx, rt, { ...state, outbox });
      });
      ctx.logger.warn(
        { project: rt.config.linkCaption, event: head.event.id, err: message },
        'delivery failed: will retry',
      );
      return;
    }
    await rt.mutex.run(async () => {
      const state = await currentState(ctx, rt);
      await commitOutboxProgress(ctx, rt, {
        ...state,
        outbox: state.outbox.filter((e) => e.event.id !== head.event.id),
      });
    });
    ctx.counters.eventsDelivered += 1;
  }
}

/** Delivers the outbox of every project whose lease this replica holds. */
export async function drainOutbox(ctx: EngineContext, deliver: Deliver): Promise<void> {
  await Promise.all(
    [...ctx.runtimes.values()]
      .filter((rt) => ctx.clock.now() < rt.leaseUntil)
      .map((rt) => drainProject(ctx, rt, deliver)),
  );
}
