import Database from 'better-sqlite3';
import { connectRedis } from '../../src/lib/coordination/redis-client.js';

/**
 * Every key the store at `url` holds, read from outside the bot the way an operator would look: the SQLite
 * file's `kv` table (live rows only), or every key in Redis (SCAN), the keyv namespace `fundbot:` taken off
 * and the coordination keys (leases, claims, replica registry) kept as they are.
 */
export async function allStoreKeys(url: string): Promise<string[]> {
  if (url.startsWith('sqlite://')) {
    const db = new Database(url.slice('sqlite://'.length), { readonly: true, fileMustExist: true });
    try {
      const rows = db.prepare('SELECT key FROM kv WHERE expires IS NULL OR expires > ?').all(Date.now()) as {
        key: string;
      }[];
      return rows.map((r) => r.key).sort();
    } finally {
      db.close();
    }
  }
  const client = await connectRedis(url, () => {});
  try {
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ COUNT: 1_000 })) {
      for (const key of Array.isArray(batch) ? batch : [batch]) keys.push(String(key));
    }
    return keys.map((k) => k.replace(/^fundbot:/, '')).sort();
  } finally {
    client.destroy();
  }
}
