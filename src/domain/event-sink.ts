import type { FundbotEvent } from './events.js';

/**
 * Where the engine's outbox hands its events: the delivery pipeline in the bot, a
 * recording function in the benchmark. The outbox keeps an event until the sink says
 * it is done with it, so nothing is lost by a crash in between.
 */
export interface EventSink {
  /**
   * Takes the project's undelivered events, oldest first: the same events again on
   * every call until they are reported done (a sink dedupes by event id). Resolves
   * with the ids it is done with: every channel got it, holds it durably (a batch,
   * a catch-up), or gave it up loudly. Those leave the outbox; the others are offered
   * again at the project's next run. After the engine loaded a project (a start, a lease taken over) it
   * offers once even with nothing to offer (`events` empty): the sink then takes up what it keeps for the
   * project (held batches) instead of waiting for the project's next event. `adopting` is true on that first
   * offer (with or without events): what the sink keeps for the project may have changed in the store while
   * another replica held it, so the sink reads it again.
   */
  offer(project: string, events: readonly FundbotEvent[], adopting?: boolean): Promise<readonly string[]>;
  /**
   * Set by a consumer with no ledger of its own (a plain in-order function): the outbox
   * then offers one event at a time and commits after each, so a crash repeats at most
   * the one event in hand (one store write per event instead of one per offer).
   */
  readonly oneAtATime?: boolean;
}
