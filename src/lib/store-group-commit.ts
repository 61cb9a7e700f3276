/**
 * Group commit: writes issued close together share ONE transaction, and each
 * write's promise settles only once that transaction committed (or failed).
 *
 * Why: a synced commit per key made SQLite the bottleneck (issue 22: 8.7 fsyncs and
 * 42.8 KB on disk per idle poll; 208 s for the first poll of 1,000 projects). A
 * caller that awaits `write()` before it posts a notice ("recorded before I post")
 * keeps that guarantee: the promise resolves after the commit, never before.
 *
 * A batch opens with its first write and commits on the next macrotask
 * (`setImmediate`: everything issued in the same tick, and in the promise chains it
 * starts, shares it) or after `windowMs` when that is set. At most `maxBatch` writes
 * go into one transaction (bounds the time one synchronous commit holds the thread);
 * more start the next batch at once. Batches never overlap: the next one commits
 * after the previous one settled, so writes land in the order they were issued.
 */
export interface GroupCommitOptions<W, R> {
  /** Applies a whole batch in one transaction; throws to fail every write in it. Returns one result per write. */
  readonly commit: (batch: readonly W[]) => readonly R[] | Promise<readonly R[]>;
  /** How long the first write of a batch waits for company (default 0: the next macrotask). */
  readonly windowMs?: number;
  /** Most writes in one transaction (default 2,000). */
  readonly maxBatch?: number;
}

export interface GroupCommit<W, R> {
  /** Queues a write; resolves with its result once its transaction committed, rejects if it failed. */
  write(item: W): Promise<R>;
  /** The writes queued and not committed yet, oldest first (for read-your-writes before the commit). */
  pending(): readonly W[];
  /** Commits what is queued now and waits for it. */
  flush(): Promise<void>;
}

interface Queued<W, R> {
  readonly item: W;
  readonly resolve: (result: R) => void;
  readonly reject: (error: unknown) => void;
}

export function groupCommit<W, R>(options: GroupCommitOptions<W, R>): GroupCommit<W, R> {
  const maxBatch = options.maxBatch ?? 2_000;
  const windowMs = options.windowMs ?? 0;
  let queue: Queued<W, R>[] = [];
  let scheduled = false;
  // The batch being committed: a flush or the next batch waits for it.
  let running: Promise<void> = Promise.resolve();

  const runBatch = async (batch: Queued<W, R>[]): Promise<void> => {
    try {
      const results = await options.commit(batch.map((q) => q.item));
      batch.forEach((q, i) => {
        q.resolve(results[i] as R);
      });
    } catch (error) {
      for (const q of batch) q.reject(error);
    }
  };

  const drain = (): Promise<void> => {
    scheduled = false;
    const next = running.then(async () => {
      while (queue.length > 0) {
        const batch = queue.slice(0, maxBatch);
        queue = queue.slice(batch.length);
        await runBatch(batch);
      }
    });
    running = next;
    return next;
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    if (windowMs > 0) setTimeout(() => void drain(), windowMs);
    else setImmediate(() => void drain());
  };

  return {
    write(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        schedule();
      });
    },
    pending: () => queue.map((q) => q.item),
    async flush() {
      await drain();
    },
  };
}
