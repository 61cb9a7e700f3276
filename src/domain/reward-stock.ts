/**
 * The low-stock rule (issue 32, item 3): a channel that set a threshold with
 * `/lowstock <n>` is told once when a reward's remaining count first drops to or
 * below it, and again only after it went back above. The engine reports every drop
 * of a limited reward's count at or below the largest threshold a channel may set;
 * each channel keeps only the drop that crosses its own threshold. No per-channel
 * state: a drop crosses `n` when it started above `n` and ended at or below it, so a
 * count that rose above `n` in between (cancellations, more stock) crosses again.
 */

/** The smallest and largest threshold `/lowstock` accepts. */
export const lowStockMinThreshold = 1;
export const lowStockMaxThreshold = 100;

/** Whether a drop from `remainingBefore` to `remaining` crosses the channel's threshold (none: never). */
export function crossesLowStock(
  drop: { readonly remainingBefore: number; readonly remaining: number },
  threshold: number | undefined,
): boolean {
  if (threshold === undefined) return false;
  return drop.remainingBefore > threshold && drop.remaining <= threshold && drop.remaining > 0;
}

/** Whether `value` is a threshold `/lowstock` accepts (a whole number in range). */
export function isLowStockThreshold(value: number): boolean {
  return Number.isInteger(value) && value >= lowStockMinThreshold && value <= lowStockMaxThreshold;
}
