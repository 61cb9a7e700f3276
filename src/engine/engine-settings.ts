import { type FeedName, feedNames, feedTable } from '../domain/feeds.js';
import type { EngineOptions } from './engine-options.js';
import { defaultHistoryOptions, type HistoryOptions } from './history.js';
import { defaultListReadOptions, type ListReadOptions } from './list-assessment.js';

/** {@link EngineOptions} with every default filled in. */
export interface EngineSettings {
  readonly reserveShare: number;
  readonly burstThreshold: number;
  readonly healEveryMs: number;
  readonly projectRefreshOnChangeMs: number;
  readonly leaseTtlMs: number;
  readonly historyOptions: HistoryOptions;
  readonly targets: Readonly<Record<FeedName, number>>;
  readonly listOptions: ListReadOptions;
}

/** Fills in the defaults; the target intervals default to the feed table's. */
export function engineSettings(o: EngineOptions = {}): EngineSettings {
  const defaultTargets = Object.fromEntries(
    feedNames.map((feed) => [feed, feedTable[feed].defaultIntervalMs]),
  ) as Record<FeedName, number>;
  return {
    reserveShare: o.reserveShare ?? 0.15,
    burstThreshold: o.burstThreshold ?? 10,
    healEveryMs: o.healEveryMs ?? 24 * 60 * 60_000,
    projectRefreshOnChangeMs: o.projectRefreshOnChangeMs ?? 45_000,
    leaseTtlMs: o.leaseTtlMs ?? 60_000,
    historyOptions: { ...defaultHistoryOptions, ...o.history },
    targets: { ...defaultTargets, ...o.targetIntervalsMs },
    listOptions: {
      ...defaultListReadOptions,
      ...(o.floodRatio !== undefined ? { floodRatio: o.floodRatio } : {}),
      ...(o.floodMin !== undefined ? { floodMin: o.floodMin } : {}),
      ...(o.windowSize !== undefined ? { windowSize: o.windowSize } : {}),
      ...(o.overlap !== undefined ? { overlap: o.overlap } : {}),
    },
  };
}
