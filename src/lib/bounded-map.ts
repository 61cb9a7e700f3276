/**
 * Maps `items` through `fn` with at most `limit` calls in flight; the results keep the items' order, and the
 * first rejection rejects the whole (calls already started finish on their own).
 *
 * Why: a store read started for each of thousands of items at once is timed from its start (observedStore's
 * bound), not from when the connection gets to it. On a loaded replica the 6,000 reads of the store marker's
 * start-up check outlived their 5 s bound in a queue, the store was then judged failing, and every other
 * operation got the shorter bound of a failing store (bench scaleRedis: no project held for minutes).
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
