/**
 * Issue 33: a project's first run reads its state (the head, or the single value stored before the split) and its
 * history (the index, or the single value before the chunks) with one getMany each (getOrOlder): on Redis 2 MGETs
 * where 4 GETs went one after the other, for each of 1,000 projects a replica takes at start (bench scaleRedis).
 */
import { describe, expect, it } from 'vitest';
import { type KeyValueStore, memoryStore } from '../../../src/lib/store.js';
import { step, useEngineHarness } from '../harness.js';

describe("a project's first run", () => {
  const harness = useEngineHarness();

  it("reads a project's state and history on its first run with 2 getMany and no get", async () => {
    const calls = { get: 0, getMany: 0 };
    const inner = memoryStore();
    const store: KeyValueStore = {
      ...inner,
      get: (k, schema) => {
        calls.get += 1;
        return inner.get(k, schema);
      },
      getMany: (keys, schema) => {
        calls.getMany += 1;
        return inner.getMany(keys, schema);
      },
    };
    const h = await harness({ store });
    await step(h);
    // The state (head, or the single value before the split) and the history (index, or the value before).
    expect(calls).toEqual({ get: 0, getMany: 2 });
  });
});
