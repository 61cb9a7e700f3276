/** Nearest-rank percentile of `values` (0 when empty). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

export interface LatencySummary {
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
  readonly mean: number;
}

export function summarize(values: readonly number[]): LatencySummary {
  return {
    p50: Math.round(percentile(values, 50)),
    p95: Math.round(percentile(values, 95)),
    max: Math.round(values.reduce((m, v) => Math.max(m, v), 0)),
    mean: values.length === 0 ? 0 : Math.round(values.reduce((sum, v) => sum + v, 0) / values.length),
  };
}

/** Tracks the process's peak resident set size; call sample() often. */
export class RssPeak {
  #peak = process.memoryUsage.rss();
  sample(): void {
    this.#peak = Math.max(this.#peak, process.memoryUsage.rss());
  }
  get mb(): number {
    return Math.round((this.#peak / 1_048_576) * 10) / 10;
  }
}
