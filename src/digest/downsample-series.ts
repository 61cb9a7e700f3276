/** One point of the funding curve. */
export interface SeriesPoint {
  readonly at: number;
  readonly funding: number;
}

/**
 * Thins a time series (oldest first) to at most about `maxPoints` by cutting the
 * time range into equal buckets and keeping each bucket's lowest, highest and
 * last point, so a dip or a jump survives while a month of minute-by-minute
 * snapshots shrinks to what fits the chart's width. Non-finite values are dropped.
 */
export function downsampleSeries(points: readonly SeriesPoint[], maxPoints: number): SeriesPoint[] {
  const clean = points
    .filter((p) => Number.isFinite(p.at) && Number.isFinite(p.funding))
    .sort((a, b) => a.at - b.at);
  if (clean.length <= maxPoints) return clean;
  const first = clean[0]!;
  const last = clean[clean.length - 1]!;
  const buckets = Math.max(1, Math.floor(maxPoints / 3));
  const span = Math.max(1, last.at - first.at);
  const out: SeriesPoint[] = [];
  let bucketIndex = -1;
  let members: SeriesPoint[] = [];
  const flush = () => {
    if (members.length === 0) return;
    const keep = new Set<SeriesPoint>();
    let low = members[0]!;
    let high = members[0]!;
    for (const p of members) {
      if (p.funding < low.funding) low = p;
      if (p.funding > high.funding) high = p;
    }
    keep
      .add(low)
      .add(high)
      .add(members[members.length - 1]!);
    out.push(...members.filter((p) => keep.has(p)));
    members = [];
  };
  for (const point of clean) {
    const index = Math.min(buckets - 1, Math.floor(((point.at - first.at) / span) * buckets));
    if (index !== bucketIndex) {
      flush();
      bucketIndex = index;
    }
    members.push(point);
  }
  flush();
  return out;
}
