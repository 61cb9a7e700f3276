import type Database from 'better-sqlite3';
import Keyv from 'keyv';

/** The table and key prefix of the store before this one (@keyv/sqlite, fundbot 0.1.0 and earlier). */
const keyvTable = 'fundbot';
const keyvPrefix = 'fundbot:';

/**
 * Moves the rows of a file written by the previous store (@keyv/sqlite: table `fundbot`, keys
 * `fundbot:<key>`, values keyv-serialized as `{"value":…,"expires":…}`) into `kv`, in ONE
 * transaction with the drop of the old table: a crash during it leaves the old table whole and
 * the migration runs again at the next start, so an operator's state survives the upgrade.
 * Rows already expired are left behind (keyv would not have returned them). Values are decoded by
 * keyv's own deserializer (it un-escapes strings that begin with ':'), so they read back exactly as
 * the old store returned them. Returns the number of rows moved (0 when there was nothing to move).
 */
export async function migrateKeyvTable(db: Database.Database, now: number): Promise<number> {
  const exists = db
    .prepare<[string], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?")
    .get(keyvTable);
  if (exists === undefined) return 0;
  const decoder = new Keyv();
  const rows = db.prepare<[], { key: string; value: string }>(`SELECT key, value FROM ${keyvTable}`).all();
  const insert = db.prepare<[string, string, number | null]>(
    'INSERT OR REPLACE INTO kv (key, value, expires) VALUES (?, ?, ?)',
  );
  // Decoded first (keyv's deserializer is async), written in one synchronous transaction.
  const entries: { key: string; json: string; expires: number | null }[] = [];
  for (const row of rows) {
    const entry = await decodeKeyvRow(decoder, row.value);
    if (entry === undefined || !row.key.startsWith(keyvPrefix)) continue;
    if (entry.expires !== null && now > entry.expires) continue;
    entries.push({
      key: row.key.slice(keyvPrefix.length),
      json: JSON.stringify(entry.value) ?? 'null',
      expires: entry.expires,
    });
  }
  db.transaction(() => {
    for (const e of entries) insert.run(e.key, e.json, e.expires);
    db.exec(`DROP TABLE ${keyvTable}`);
  })();
  return entries.length;
}

/** keyv's `{ value, expires }`, or undefined for a row that is not (the old store could not read it either). */
async function decodeKeyvRow(
  decoder: Keyv,
  text: string,
): Promise<{ value: unknown; expires: number | null } | undefined> {
  let decoded: unknown;
  try {
    decoded = await decoder.deserializeData(text);
  } catch {
    return undefined;
  }
  if (decoded === null || typeof decoded !== 'object' || !('value' in decoded)) return undefined;
  const { value, expires } = decoded as { value: unknown; expires?: unknown };
  return { value, expires: typeof expires === 'number' ? expires : null };
}
