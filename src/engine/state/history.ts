import { z } from 'zod';
import type { HistoryPoint } from '../../domain/read-model.js';
import type { HistoryOptions } from '../context/engine-settings.js';

export type { HistoryOptions } from '../context/engine-settings.js';

export const historyPointSchema: z.ZodType<HistoryPoint> = z.object({
  at: z.number(),
  funding: z.number(),
  supporters: z.number().int(),
  rewardsSold: z.record(z.string(), z.number().int()),
});
export const historySchema = z.array(historyPointSchema);

export const defaultHistoryOptions: HistoryOptions = {
  rawWindowMs: 24 * 60 * 60 * 1000,
  bucketMs: 15 * 60 * 1000,
  maxPoints: 5000,
};

function sameFigures(a: HistoryPoint, b: HistoryPoint): boolean {
  if (a.funding !== b.funding || a.supporters !== b.supporters) return false;
  const keys = Object.keys(b.rewardsSold);
  if (keys.length !== Object.keys(a.rewardsSold).length) return false;
  return keys.every((k) => a.rewardsSold[k] === b.rewardsSold[k]);
}

/**
 * Appends a snapshot when something changed (one point per poll with a change)
 * and keeps the series compact: older than a day, one point per 15 minutes;
 * never more than `maxPoints`. Points are kept oldest first.
 */
export function appendHistory(
  points: readonly HistoryPoint[],
  point: HistoryPoint,
  options: HistoryOptions = defaultHistoryOptions,
): HistoryPoint[] | null {
  const last = points.at(-1);
  if (last !== undefined && sameFigures(last, point)) return null;
  const cutoff = point.at - options.rawWindowMs;
  const result: HistoryPoint[] = [];
  for (const p of points) {
    const previous = result.at(-1);
    // Within one old bucket the later point replaces the earlier one.
    if (
      p.at < cutoff &&
      previous !== undefined &&
      previous.at < cutoff &&
      Math.floor(previous.at / options.bucketMs) === Math.floor(p.at / options.bucketMs)
    ) {
      result[result.length - 1] = p;
    } else {
      result.push(p);
    }
  }
  result.push(point);
  return result.length > options.maxPoints ? result.slice(result.length - options.maxPoints) : result;
}
