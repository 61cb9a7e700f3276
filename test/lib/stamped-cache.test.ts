import { describe, expect, it } from 'vitest';
import { StampedCache, withChangeStamp } from '../../src/lib/change-stamp.js';
import { memoryStore } from '../../src/lib/store.js';
import type { KeyValueStore } from '../../src/lib/store-port.js';

/** A store whose reads can be made to fail, to see what a failing stamp read does to the kept reads. */
function failableStore(inner: KeyValueStore): { store: KeyValueStore; failReads(on: boolean): void } {
  let failing = false;
  return {
    store: {
      ...inner,
      get: (key, schema) => (failing ? Promise.reject(new Error('store down')) : inner.get(key, schema)),
    },
    failReads: (on) => {
      failing = on;
    },
  };
}

describe('StampedCache: reads kept until the change stamp moves', () => {
  it('keeps a read while the stamp holds and reads again once a write through the stamped view moved it', async () => {
    const raw = memoryStore();
    let stamps = 0;
    const settings = withChangeStamp(raw, 'settings/stamp', () => `s${++stamps}`);
    const cache = new StampedCache(raw, 'settings/stamp');
    let reads = 0;
    const read = () => {
      reads += 1;
      return Promise.resolve(reads);
    };
    expect(await cache.refresh()).toBe(true);
    expect(await cache.keep('a', read)).toBe(1);
    expect(await cache.refresh()).toBe(false);
    expect(await cache.keep('a', read)).toBe(1);
    await settings.set('settings/x', 1);
    expect(await cache.refresh()).toBe(true);
    expect(await cache.keep('a', read)).toBe(2);
    cache.drop();
    expect(await cache.keep('a', read)).toBe(3);
    expect(await cache.refresh()).toBe(true);
  });

  it('does not keep a failed read', async () => {
    const cache = new StampedCache(memoryStore(), 'settings/stamp');
    await cache.refresh();
    await expect(cache.keep('a', () => Promise.reject(new Error('nope')))).rejects.toThrow('nope');
    expect(await cache.keep('a', () => Promise.resolve('read again'))).toBe('read again');
  });

  it('drops every kept read when the stamp cannot be read, and says so by throwing', async () => {
    const { store, failReads } = failableStore(memoryStore());
    const cache = new StampedCache(store, 'settings/stamp');
    await cache.refresh();
    await cache.keep('a', () => Promise.resolve('old'));
    failReads(true);
    await expect(cache.refresh()).rejects.toThrow('store down');
    failReads(false);
    expect(await cache.keep('a', () => Promise.resolve('new'))).toBe('new');
  });
});
