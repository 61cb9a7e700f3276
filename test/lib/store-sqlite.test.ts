import { spawn } from 'node:child_process';
import { mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type KeyValueStore,
  openStore,
  StoreClosedError,
  StoreFileReplacedError,
} from '../../src/lib/store.js';

let dir = '';
let file = '';
let store: KeyValueStore | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fundbot-sqlite-'));
  file = join(dir, 'state.sqlite');
});

afterEach(async () => {
  await store?.close();
  store = undefined;
  await rm(dir, { recursive: true, force: true });
});

const anything = z.unknown();

describe('the SQLite store', () => {
  it('reads back what was written, a queued write before its commit, and hides expired values', async () => {
    store = await openStore(`sqlite://${file}`);
    const written = store.set('a', { n: 1 });
    // Read-your-writes: the set is queued for the next transaction, a read sees it already.
    expect(await store.get('a', anything)).toEqual({ n: 1 });
    await written;
    await store.set('short', 'gone soon', 1);
    await store.set('long', 'kept', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await store.get('short', anything)).toBeUndefined();
    expect(await store.get('long', anything)).toBe('kept');
    expect(await store.delete('a')).toBe(true);
    expect(await store.delete('a')).toBe(false);
    // An expired value is not "deleted" (keyv's answer), but its row goes.
    expect(await store.delete('short')).toBe(false);
    await store.close();
    store = await openStore(`sqlite://${file}`);
    expect(await store.get('long', anything)).toBe('kept');
    expect(await store.get('a', anything)).toBeUndefined();
  });

  it('a failed transaction rejects every set in it: the file deleted under the running store', async () => {
    store = await openStore(`sqlite://${file}`);
    await store.set('before', 1);
    await unlink(file);
    const results = await Promise.allSettled([store.set('x', 1), store.set('y', 2), store.delete('before')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const r of results) {
      if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(StoreFileReplacedError);
    }
    expect(String((results[0] as PromiseRejectedResult).reason)).toContain(
      'restore the file from your backup',
    );
  });

  it('refuses operations after close with a clear error, not a driver misuse', async () => {
    store = await openStore(`sqlite://${file}`);
    const s = store;
    await s.close();
    store = undefined;
    await expect(s.set('late', 1)).rejects.toBeInstanceOf(StoreClosedError);
    await expect(s.get('late', anything)).rejects.toBeInstanceOf(StoreClosedError);
  });

  it('kill -9 in the middle of writes loses nothing that was acknowledged (a real child process)', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        import.meta.resolve('tsx'),
        new URL('./store-writer-child.ts', import.meta.url).pathname,
        file,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let acked = -1;
    let buffered = '';
    const killed = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the writer exited (${code}) before it was killed`)));
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        for (const match of buffered.matchAll(/acked (\d+)\n/g)) acked = Math.max(acked, Number(match[1]));
        buffered = buffered.slice(buffered.lastIndexOf('\n') + 1);
        // Killed mid-stream: thousands of values written, more being written right now.
        if (acked >= 5_000 && child.exitCode === null) {
          child.kill('SIGKILL');
          resolve();
        }
      });
    });
    await killed;
    store = await openStore(`sqlite://${file}`);
    const missing: number[] = [];
    for (let k = 0; k <= acked; k++) {
      const value = await store.get(`key/${k}`, z.object({ k: z.number() }).loose());
      if (value?.k !== k) missing.push(k);
    }
    expect(missing).toEqual([]);
  }, 60_000);
});
