/**
 * The event engine: polls each project's feeds within its rate budget, diffs
 * them by the spec's stable keys, and delivers events exactly once per stable
 * id through a durable outbox. Also the read model the command core answers from.
 */

export * from '../domain/events.js';
export { crossedMilestones, defaultMilestones } from '../domain/milestones.js';
export type { BudgetFigures, FeedDemand } from './budget-plan.js';
export { planIntervals } from './budget-plan.js';
export {
  type CreateEngineOptions,
  createEngine,
  type Engine,
  type EngineMetrics,
  type EngineOptions,
  type EngineProject,
  type FeedName,
  type KeySource,
  type PollOutcome,
  type ProjectPollingStatus,
  type RejectedKeyCode,
} from './engine.js';
export { appendHistory, defaultHistoryOptions, type HistoryOptions } from './history.js';
export { type Lease, memoryLease } from './lease.js';
export { detectOrder, type ListItemCodec, type ListOrder } from './list-order.js';
export { defaultListReadOptions, type ListReadOptions, readList } from './list-reader.js';
export {
  CPU_BOUND_PER_SECOND,
  type ProcessCeiling,
  sizedCeilingPerSecond,
} from './process-ceiling.js';
export { stateKeys } from './project-state.js';
