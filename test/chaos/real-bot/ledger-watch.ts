/**
 * The running bot's delivery records as they land in its SQLite file, read from outside the process: a read-only
 * connection (WAL lets it read beside the bot's writes) looks every `everyMs` and records each record whose state
 * changed, with the time it was seen. The judge's doubt bound reads these writes; a state that changed and changed
 * back between two looks is missed, and a write is seen up to `everyMs` late, both well inside the bound.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { type DeliveryWrite, deliveryRecordPrefix } from '../world/world-record.js';

export interface LedgerWatch {
  readonly writes: readonly DeliveryWrite[];
  /** Delivery records now `attempting` (in doubt). */
  openDoubts(): number;
  /** Looks once more and stops. */
  stop(): void;
}

export function watchLedger(path: string, everyMs = 200): LedgerWatch {
  const writes: DeliveryWrite[] = [];
  const states = new Map<string, string>();
  let db: Database.Database | undefined;
  const look = () => {
    if (!db) {
      if (!existsSync(path)) return;
      try {
        db = new Database(path, { readonly: true, fileMustExist: true, timeout: 1_000 });
      } catch {
        return;
      }
    }
    let rows: { key: string; value: string }[];
    try {
      rows = db
        .prepare<[string, string], { key: string; value: string }>(
          'SELECT key, value FROM kv WHERE key >= ? AND key < ?',
        )
        .all(deliveryRecordPrefix, `${deliveryRecordPrefix}\uffff`);
    } catch {
      // The bot is creating its table, or holds the write lock past the timeout: the next look reads it.
      return;
    }
    const at = Date.now();
    for (const { key, value } of rows) {
      let state: unknown;
      try {
        state = (JSON.parse(value) as { state?: unknown }).state;
      } catch {
        continue;
      }
      if (typeof state !== 'string' || states.get(key) === state) continue;
      states.set(key, state);
      writes.push({ at, key: key.slice(deliveryRecordPrefix.length), state });
    }
  };
  const timer = setInterval(look, everyMs);
  return {
    writes,
    openDoubts: () => [...states.values()].filter((s) => s === 'attempting').length,
    stop() {
      clearInterval(timer);
      look();
      db?.close();
    },
  };
}
