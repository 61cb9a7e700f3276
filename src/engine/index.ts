/**
 * The event engine: polls each project's feeds within its rate budget, diffs
 * them by the spec's stable keys, and delivers events exactly once per stable
 * id through a durable outbox. Also the read model the command core answers from.
 */

export * from '../domain/events.js';
export { crossedMilestones, defaultMilestones } from '../domain/milestones.js';
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
export { type Lease, memoryLease } from './lease/lease.js';
export { detectOrder, type ListItemCodec, type ListOrder } from './lists/list-order.js';
export { defaultListReadOptions, type ListReadOptions, readList } from './lists/list-reader.js';
export type { BudgetFigures, FeedDemand } from './schedule/budget-plan.js';
export { planIntervals } from './schedule/budget-plan.js';
export {
  CPU_BOUND_PER_SECOND,
  type ProcessCeiling,
  sizedCeilingPerSecond,
} from './schedule/process-ceiling.js';
export { appendHistory, defaultHistoryOptions, type HistoryOptions } from './state/history.js';
export { stateKeys } from './state/project-state.js';
