import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Clock } from './clock.js';
import { groupCommit } from './store-group-commit.js';
import type { KeyValueStore, SweepSlice } from './store-port.js';
import { migrateKeyvTable } from './store-sqlite-migrate.js';
import { GET_MANY_BATCH, keyContains, parseStored, parseStoredMany, slicesOf } from './store-value.js';

/**
 * The embedded default store: one SQLite file through better-sqlite3.
 *
 * - Layout: one table `kv(key TEXT PRIMARY KEY, value TEXT /* JSON *\/, expires INTEGER /* epoch ms or NULL *\/)`
 *   with a partial index on `expires`, so the hourly sweep finds expired rows without reading the others.
 * - Writes: group commit (store-group-commit.ts): the sets and deletes of one tick share ONE transaction and
 *   each promise resolves once it committed.
 * - Durability: WAL with `synchronous = NORMAL`. A commit is a write() of its WAL frames, no fsync: the frames
 *   are in the kernel's page cache when the promise resolves, so a killed process (kill -9, OOM, a crash)
 *   loses nothing acknowledged. The WAL is fsynced at each checkpoint (at 1,000 pages, and at most
 *   `checkpointEveryMs` after a commit): a power loss or kernel crash can roll the file back by the commits of
 *   that last interval (at most 60 s by default), never corrupt it (docs/architecture.md, "Store").
 * - Reads: synchronous (about 20 µs), after the writes still queued for the next transaction (read-your-writes,
 *   as one Redis connection gives).
 * - Why better-sqlite3 (figures in the commit that introduced it): the same group commit costs about 5x less CPU
 *   than the `sqlite3` package (no thread-pool round trip per statement), and about 6x less than the keyv
 *   adapter's per-key autocommit.
 * - Expiry: keyv's semantics (a value is gone once `Date.now()` is past its `expires`); expired rows are hidden
 *   from reads and deleted by {@link KeyValueStore.sweepExpired}, in slices.
 * - A file deleted or replaced under the running process (an operator's `rm`, a restore) would swallow every
 *   later write: each transaction first checks that the path still names the file it opened, and fails if not.
 */
export interface SqliteStoreOptions {
  /** Epoch ms for expiry (default Date.now, like keyv's). */
  readonly now?: () => number;
  /** Times the checkpoint after a commit (default the system clock; the disk bench runs it on virtual time). */
  readonly clock?: Clock;
  /** Longest wait between a commit and the checkpoint that makes it survive a power loss (default 60 s). */
  readonly checkpointEveryMs?: number;
  /** Group commit window (default 0: the next macrotask). */
  readonly windowMs?: number;
  /** Told how the open went (a migration from the old keyv table). Must not throw. */
  readonly onOpen?: (info: { readonly migratedFromKeyv: number }) => void;
}

/**
 * 512-byte pages, SQLite's smallest: a commit writes every page it touched in full (a WAL frame),
 * and fundbot's values are small (a head about 1.2 KB, a chunk 1-2 KB), so a smaller page writes
 * less around them. Measured on the bench's launch day (bytes the process wrote to the database
 * and its WAL, counted by strace; checkpoint every 60 s): 4,096 B pages 97 MB, 2,048 B 62 MB,
 * 1,024 B 54 MB, 512 B 41 MB, for 16 MB of values written.
 */
export const SQLITE_PAGE_SIZE = 512;

/**
 * Sets the page size on a new file, or converts a file of the previous store (rollback journal,
 * 4 KB pages) once with VACUUM, before WAL is switched on (a WAL file keeps its page size).
 */
function usePageSize(db: Database.Database): void {
  if (db.pragma('page_size', { simple: true }) === SQLITE_PAGE_SIZE) return;
  if (db.pragma('journal_mode', { simple: true }) === 'wal') return;
  db.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
  db.exec('VACUUM');
}

/** Rows one sweep slice deletes at most: bounds the time one statement holds the file. */
export const SWEEP_SLICE_ROWS = 5_000;

type Write =
  | { readonly op: 'set'; readonly key: string; readonly json: string; readonly expires: number | null }
  | { readonly op: 'add'; readonly key: string; readonly json: string; readonly expires: number }
  | { readonly op: 'delete'; readonly key: string }
  | { readonly op: 'deleteIf'; readonly key: string; readonly json: string }
  | { readonly op: 'deletePrefix'; readonly key: string; readonly containing?: readonly string[] };

/** Thrown for any operation after {@link KeyValueStore.close}. */
export class StoreClosedError extends Error {
  override readonly name = 'StoreClosedError';
  constructor() {
    super('the store is closed (fundbot is shutting down): the operation was not carried out');
  }
}

/** The file was deleted or replaced while fundbot had it open: writes would go nowhere a restart reads. */
export class StoreFileReplacedError extends Error {
  override readonly name = 'StoreFileReplacedError';
  constructor(readonly path: string) {
    super(
      `the SQLite file ${path} was deleted or replaced while fundbot had it open; writes are refused so nothing ` +
        'is acknowledged that a restart would not find: restore the file from your backup and restart fundbot ' +
        '(or restart it to begin with an empty store)',
    );
  }
}

/** The first string after every string that starts with `prefix` (its last UTF-16 unit plus one). */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** No write for this key is queued: read it from the file. */
const unqueued = Symbol('unqueued');

export async function openSqliteStore(
  path: string,
  options: SqliteStoreOptions = {},
): Promise<KeyValueStore> {
  const now = options.now ?? Date.now;
  const db = new Database(path, { timeout: 2_000 });
  usePageSize(db);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires INTEGER);
           CREATE INDEX IF NOT EXISTS kv_expires ON kv(expires) WHERE expires IS NOT NULL;`);
  const migrated = await migrateKeyvTable(db, now());
  options.onOpen?.({ migratedFromKeyv: migrated });
  const inode = path === ':memory:' ? undefined : statSync(path).ino;

  const select = db.prepare<[string], { value: string; expires: number | null }>(
    'SELECT value, expires FROM kv WHERE key = ?',
  );
  // getMany's slices are padded to GET_MANY_BATCH with their first key (IN ignores repeats): one statement.
  const selectMany = db.prepare<string[], { key: string; value: string; expires: number | null }>(
    `SELECT key, value, expires FROM kv WHERE key IN (${Array.from({ length: GET_MANY_BATCH }, () => '?').join(', ')})`,
  );
  const upsert = db.prepare<[string, string, number | null]>(
    `INSERT INTO kv (key, value, expires) VALUES (?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires = excluded.expires`,
  );
  // Set-if-absent in ONE statement: a live row is left alone (0 changes), an expired one is replaced.
  // It runs inside the group commit's transaction, in the order issued, so of two callers in one batch
  // (or in two processes on one file: SQLite's write lock) exactly one changes a row.
  const insertIfAbsent = db.prepare<[string, string, number, number]>(
    `INSERT INTO kv (key, value, expires) VALUES (?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires = excluded.expires
     WHERE kv.expires IS NOT NULL AND kv.expires < ?`,
  );
  // Keys starting with a prefix: a range on the primary key, [p, p with its last character incremented).
  const removeRange = db.prepare<[string, string]>('DELETE FROM kv WHERE key >= ? AND key < ?');
  const keysInRange = db.prepare<[string, string], { key: string }>(
    'SELECT key FROM kv WHERE key >= ? AND key < ?',
  );
  const removeKey = db.prepare<[string]>('DELETE FROM kv WHERE key = ?');
  const remove = db.prepare<[string], { expires: number | null }>(
    'DELETE FROM kv WHERE key = ? RETURNING expires',
  );
  // Compare-and-delete in ONE statement, in the group commit's transaction: only a live row holding exactly
  // this JSON goes (values are written by JSON.stringify, so one string has one text).
  const removeIfValue = db.prepare<[string, string, number]>(
    'DELETE FROM kv WHERE key = ? AND value = ? AND (expires IS NULL OR expires >= ?)',
  );
  const expiredSlice = db.prepare<[number, number], { key: string }>(
    'SELECT key FROM kv WHERE expires IS NOT NULL AND expires < ? ORDER BY expires LIMIT ?',
  );

  const assertSameFile = () => {
    if (inode === undefined) return;
    let current: number | undefined;
    try {
      current = statSync(path).ino;
    } catch {}
    if (current !== inode) throw new StoreFileReplacedError(path);
  };

  let closed = false;
  const applyBatch = db.transaction((batch: readonly Write[]): (boolean | number)[] => {
    const at = now();
    return batch.map((w) => {
      if (w.op === 'set') {
        upsert.run(w.key, w.json, w.expires);
        return true;
      }
      if (w.op === 'add') return insertIfAbsent.run(w.key, w.json, w.expires, at).changes === 1;
      if (w.op === 'deletePrefix') {
        if (w.containing === undefined) return removeRange.run(w.key, prefixEnd(w.key)).changes;
        const keys = keysInRange.all(w.key, prefixEnd(w.key)).filter((r) => keyContains(r.key, w.containing));
        for (const r of keys) removeKey.run(r.key);
        return keys.length;
      }
      if (w.op === 'deleteIf') return removeIfValue.run(w.key, w.json, at).changes === 1;
      // "Deleted" means a live value was there (keyv's answer); an expired row goes too.
      const row = remove.get(w.key);
      return row !== undefined && (row.expires === null || at <= row.expires);
    });
  });
  const writes = groupCommit<Write, boolean | number>({
    ...(options.windowMs !== undefined ? { windowMs: options.windowMs } : {}),
    commit(batch) {
      if (closed) throw new StoreClosedError();
      assertSameFile();
      const results = applyBatch(batch);
      scheduleCheckpoint();
      return results;
    },
  });

  // Bounds what a power loss can take: the WAL is fsynced at a checkpoint, not at a commit. One
  // checkpoint at most `checkpointEvery` after the first commit since the last one; none while idle.
  const checkpointEvery = options.checkpointEveryMs ?? 60_000;
  const stopCheckpoints = new AbortController();
  // On real time the timer does not keep the process alive: a script that forgets close() still exits.
  const sleep =
    options.clock === undefined
      ? (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref())
      : (ms: number) => (options.clock as Clock).sleep(ms, stopCheckpoints.signal);
  let checkpointDue = false;
  const scheduleCheckpoint = () => {
    if (checkpointDue) return;
    checkpointDue = true;
    sleep(checkpointEvery).then(
      () => {
        checkpointDue = false;
        if (closed) return;
        try {
          db.pragma('wal_checkpoint(PASSIVE)');
        } catch {
          // The next commit fails and says why (the observed store reports it); a checkpoint has nothing to add.
        }
      },
      () => {},
    );
  };

  /** What the writes queued for the next commit say of `key` ({@link unqueued} when none touches it). */
  const queuedValue = (key: string): unknown => {
    // A queued set-if-absent or compare-and-delete is not read through: whether it lands is the commit's to say.
    const queued = writes
      .pending()
      .findLast((w) =>
        w.op === 'deletePrefix'
          ? key.startsWith(w.key) && keyContains(key, w.containing)
          : w.op !== 'add' && w.op !== 'deleteIf' && w.key === key,
      );
    if (queued === undefined) return unqueued;
    return queued.op === 'set' ? parse(queued.json, queued.expires) : undefined;
  };
  const readValue = (key: string): unknown => {
    const queued = queuedValue(key);
    if (queued !== unqueued) return queued;
    const row = select.get(key);
    return row === undefined ? undefined : parse(row.value, row.expires);
  };
  const parse = (json: string, expires: number | null): unknown => {
    if (expires !== null && now() > expires) return undefined;
    return JSON.parse(json) as unknown;
  };

  const store: KeyValueStore = {
    async get(key, schema) {
      if (closed) throw new StoreClosedError();
      const value = readValue(key);
      if (value === undefined || value === null) return undefined;
      return parseStored(key, value, schema);
    },
    async getMany(keys, schema) {
      if (closed) throw new StoreClosedError();
      const values = keys.map(queuedValue);
      const unread = keys.filter((_, i) => values[i] === unqueued);
      const read = new Map<string, unknown>();
      for (const slice of slicesOf(unread, GET_MANY_BATCH)) {
        const padded = [...slice, ...Array<string>(GET_MANY_BATCH - slice.length).fill(slice[0] as string)];
        for (const row of selectMany.all(...padded)) read.set(row.key, parse(row.value, row.expires));
      }
      const raws = keys.map((key, i) => (values[i] === unqueued ? read.get(key) : values[i]));
      return parseStoredMany(keys, raws, schema);
    },
    set(key, value, ttlMs) {
      const json = JSON.stringify(value) ?? 'null';
      const expires = ttlMs === undefined ? null : now() + ttlMs;
      return writes.write({ op: 'set', key, json, expires }).then(() => undefined);
    },
    delete(key) {
      return writes.write({ op: 'delete', key }).then((deleted) => deleted === true);
    },
    setIfAbsent(key, value, ttlMs) {
      const json = JSON.stringify(value) ?? 'null';
      return writes.write({ op: 'add', key, json, expires: now() + ttlMs }).then((added) => added === true);
    },
    deleteIfValue(key, expected) {
      const json = JSON.stringify(expected);
      return writes.write({ op: 'deleteIf', key, json }).then((deleted) => deleted === true);
    },
    async deletePrefix(prefix, containing) {
      if (prefix === '') throw new Error('deletePrefix needs a non-empty prefix (it would empty the store)');
      const deleted = await writes.write({
        op: 'deletePrefix',
        key: prefix,
        ...(containing !== undefined ? { containing } : {}),
      });
      return typeof deleted === 'number' ? deleted : 0;
    },
    async sweepExpired(at: number): Promise<SweepSlice> {
      await writes.flush();
      if (closed) throw new StoreClosedError();
      const keys = expiredSlice.all(at, SWEEP_SLICE_ROWS).map((r) => r.key);
      if (keys.length > 0) {
        assertSameFile();
        db.transaction(() => {
          for (const key of keys) remove.run(key);
        })();
      }
      return { scanned: keys.length, deleted: keys.length, wrapped: keys.length < SWEEP_SLICE_ROWS };
    },
    async close() {
      if (closed) return;
      await writes.flush();
      closed = true;
      stopCheckpoints.abort(new Error('store closed'));
      // Closing the last connection checkpoints the WAL into the file and removes it.
      db.close();
    },
  };
  return store;
}
