import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  isStoreFailure,
  type KeyValueStore,
  memoryStore,
  observedStore,
  StoredValueError,
  type StoreOutcome,
  StoreTimeoutError,
} from '../../src/lib/store.js';
import { ManualClock } from '../support/manual-clock.js';

/** A store whose operations never settle, like a client waiting for a Redis that is not there. */
const hangingStore: KeyValueStore = {
  get: () => new Promise(() => {}),
  getMany: () => new Promise(() => {}),
  set: () => new Promise(() => {}),
  delete: () => new Promise(() => {}),
  setIfAbsent: () => new Promise(() => {}),
  deleteIfValue: () => new Promise(() => {}),
  deletePrefix: () => new Promise(() => {}),
  close: async () => {},
};

describe('observedStore', () => {
  it('fails an operation that does not settle within the timeout, and reports it', async () => {
    const clock = new ManualClock();
    const outcomes: StoreOutcome[] = [];
    const store = observedStore(hangingStore, {
      clock,
      timeoutMs: 5_000,
      onOutcome: (o) => outcomes.push(o),
    });
    const pending = store.set('k', 1);
    const settled = pending.then(
      () => 'resolved',
      (error: unknown) => error,
    );
    clock.advance(4_999);
    await Promise.resolve();
    expect(outcomes).toEqual([]);
    clock.advance(1);
    const error = await settled;
    expect(error).toBeInstanceOf(StoreTimeoutError);
    expect(String(error)).toContain('within 5000 ms');
    expect(outcomes).toEqual([expect.objectContaining({ operation: 'set', ok: false, durationMs: 5_000 })]);
  });

  it('reports successes, and a value failing its schema as answered (a data problem, not an outage)', async () => {
    const outcomes: StoreOutcome[] = [];
    const store = observedStore(memoryStore(), { onOutcome: (o) => outcomes.push(o) });
    await store.set('k', 'text');
    expect(await store.get('k', z.string())).toBe('text');
    await expect(store.get('k', z.number())).rejects.toBeInstanceOf(StoredValueError);
    expect(await store.delete('k')).toBe(true);
    expect(outcomes.map((o) => `${o.operation}:${o.ok}`)).toEqual([
      'set:true',
      'get:true',
      'get:true',
      'delete:true',
    ]);
  });

  it('passes a failure of the store through unchanged', async () => {
    const outcomes: StoreOutcome[] = [];
    const broken: KeyValueStore = {
      ...hangingStore,
      get: async () => Promise.reject(new Error('SQLITE_FULL')),
    };
    const store = observedStore(broken, { onOutcome: (o) => outcomes.push(o) });
    await expect(store.get('k', z.string())).rejects.toThrow('SQLITE_FULL');
    expect(outcomes).toEqual([expect.objectContaining({ operation: 'get', ok: false })]);
  });

  it('on the system clock (a timer per operation): bounds a hanging operation, the failing bound until one succeeds', async () => {
    const outcomes: StoreOutcome[] = [];
    let hang = true;
    const flaky: KeyValueStore = {
      ...hangingStore,
      get: <T>(key: string, schema: z.ZodType<T>) =>
        hang ? new Promise<T>(() => {}) : Promise.resolve(schema.parse(key)),
    };
    const store = observedStore(flaky, {
      timeoutMs: 300,
      failingTimeoutMs: 40,
      onOutcome: (o) => outcomes.push(o),
    });
    await expect(store.get('a', z.string())).rejects.toThrow('within 300 ms');
    await expect(store.get('b', z.string())).rejects.toThrow('within 40 ms');
    hang = false;
    expect(await store.get('c', z.string())).toBe('c');
    hang = true;
    const error = await store.get('d', z.string()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreTimeoutError);
    expect(isStoreFailure(error)).toBe(true);
    expect(String(error)).toContain('within 300 ms');
    expect(outcomes.map((o) => `${o.operation}:${o.ok}`)).toEqual([
      'get:false',
      'get:false',
      'get:true',
      'get:false',
    ]);
    expect(outcomes[0]?.durationMs).toBeGreaterThanOrEqual(299);
  });
});
