import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readStoredState } from '../../src/engine/state/project-state-store.js';
import { openStore } from '../../src/lib/store.js';
import { SQLITE_PAGE_SIZE } from '../../src/lib/store-sqlite.js';

const fixture = new URL('../fixtures/keyv-sqlite/', import.meta.url);
let dir = '';
let file = '';

/** Every row of the old store as keyv decoded it when the fixture was written (fixtures/keyv-sqlite/README.md). */
async function expectedRows(): Promise<Record<string, { value: unknown; expires: number | null }>> {
  return JSON.parse(await readFile(new URL('expected.json', fixture), 'utf8')) as Record<
    string,
    { value: unknown; expires: number | null }
  >;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fundbot-migrate-'));
  file = join(dir, 'fundbot.sqlite');
  await copyFile(new URL('fundbot.sqlite', fixture), file);
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a fundbot.sqlite written by the @keyv/sqlite store', () => {
  it('is migrated at open: every live value reads back as the old store returned it, with its expiry', async () => {
    const expected = await expectedRows();
    const store = await openStore(`sqlite://${file}`);
    const now = Date.now();
    for (const [key, row] of Object.entries(expected)) {
      const live = row.expires === null || now <= row.expires;
      expect({ key, value: await store.get(key, z.unknown()) }).toEqual({
        key,
        value: live ? row.value : undefined,
      });
    }
    // The ':'-escaped string is un-escaped exactly as keyv did.
    expect(await store.get('fixture/colon', z.string())).toBe(':a string keyv escapes');
    await store.close();
    const raw = new Database(file, { readonly: true });
    // Converted once to the small pages a commit writes least around (store-sqlite.ts, SQLITE_PAGE_SIZE).
    expect(raw.pragma('page_size', { simple: true })).toBe(SQLITE_PAGE_SIZE);
    const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
    const expires = raw
      .prepare<[], { key: string; expires: number | null }>('SELECT key, expires FROM kv')
      .all();
    raw.close();
    // The old table is gone (moved in the same transaction), expiries carried over, the expired row left behind.
    expect(tables).toEqual([{ name: 'kv' }]);
    const live = Object.entries(expected).filter(([, r]) => r.expires === null || now <= r.expires);
    expect(Object.fromEntries(expires.map((r) => [r.key, r.expires]))).toEqual(
      Object.fromEntries(live.map(([key, r]) => [key, r.expires])),
    );
    expect(expires.some((r) => r.key === 'fixture/expired')).toBe(false);
  });

  it("the engine's own reader takes the migrated state whole (no re-baseline at the first poll)", async () => {
    const store = await openStore(`sqlite://${file}`);
    // Throws StoredValueError for a head or chunk that is missing or does not fit its schema.
    const state = await readStoredState(store, 'solar-kiosk');
    await store.close();
    expect(state?.lists.fundings?.total).toBe(2);
    expect(state?.lists.fundings?.entries.map((f) => f.user.display_name)).toEqual([
      'Jörg S.',
      'Ana Zieliński',
    ]);
    expect(state?.lists.wall?.entries.map((p) => p.message)).toEqual(['hello']);
  });

  it('opens again without migrating twice (the second open finds no old table)', async () => {
    const first = await openStore(`sqlite://${file}`);
    await first.set('fixture/colon', 'changed after the upgrade');
    await first.close();
    const second = await openStore(`sqlite://${file}`);
    expect(await second.get('fixture/colon', z.string())).toBe('changed after the upgrade');
    await second.close();
  });
});
