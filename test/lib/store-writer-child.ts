/**
 * Writes to a SQLite store until killed: for test/lib/store-sqlite.test.ts (kill -9 mid-writes).
 * Rounds of 50 concurrent sets (each round one group commit); after each round's promises
 * resolved, prints `acked <last index>`: the parent kills this process at some point and
 * checks that every acknowledged value is in the file.
 */
import { writeSync } from 'node:fs';
import { openStore } from '../../src/lib/store.js';

const store = await openStore(`sqlite://${process.argv[2]}`);
const value = { padding: 'x'.repeat(1_000) };
for (let round = 0; ; round++) {
  const keys = Array.from({ length: 50 }, (_, i) => round * 50 + i);
  await Promise.all(keys.map((k) => store.set(`key/${k}`, { ...value, k })));
  // Synchronous: the line is in the pipe before the next round starts.
  writeSync(1, `acked ${round * 50 + 49}\n`);
}
