import type { RateBudget } from './rate-budget.js';
import type { ListMeta } from './schemas/envelopes.js';

/** Paging of one request. `limit` above 100 is clamped by the server; 0 means the default (20). */
export interface PageParams {
  limit?: number;
  offset?: number;
  signal?: AbortSignal;
}

/** One page of a list endpoint. Reading a whole list is the caller's job (the engine's list reader). */
export interface Page<T> {
  readonly items: T[];
  readonly meta: ListMeta;
  /** Clock ms when the response arrived. */
  readonly receivedAt: number;
  /** The credential's budget as reported by this response. */
  readonly budget: RateBudget | undefined;
}

/** Per-call options of the calls that read one item. */
export interface CallOptions {
  signal?: AbortSignal;
}
