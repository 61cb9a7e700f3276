import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createApiClient,
  type Page,
  type PaginationGap,
  paginate,
  parseProjectKey,
} from '../../src/api/index.js';
import { ManualClock } from '../../src/lib/clock.js';
import { aList, aWallPost } from './helpers/builders.js';
import { json, startTinyServer } from './helpers/tiny-server.js';

interface Entry {
  readonly key: string;
}

/** A change applied to the list just before a page request is answered. */
type Mutation = { kind: 'insert'; at: number; count: number } | { kind: 'remove'; at: number; count: number };

/**
 * An in-memory list endpoint with the spec's paging rules (limit default 20,
 * clamped to 100, 0 = default; meta.total), mutated between page requests.
 */
function mutatingList(initial: number, schedule: Mutation[][], everyPageRequest: Mutation[] = []) {
  let items: Entry[] = Array.from({ length: initial }, (_, i) => ({ key: `k${i}` }));
  let fresh = 0;
  const everRemoved = new Set<string>();
  const everPresent = new Set(items.map((e) => e.key));
  let requests = 0;
  const fetch = async (offset: number, limit: number): Promise<Page<Entry>> => {
    const changes = [...(schedule[requests] ?? []), ...(offset > 0 ? everyPageRequest : [])];
    for (const change of changes) {
      const at = Math.min(items.length, Math.floor(change.at * (items.length + 1)));
      if (change.kind === 'insert') {
        const added = Array.from({ length: change.count }, () => ({ key: `new${fresh++}` }));
        for (const e of added) everPresent.add(e.key);
        items = [...items.slice(0, at), ...added, ...items.slice(at)];
      } else {
        for (const e of items.slice(at, at + change.count)) everRemoved.add(e.key);
        items = [...items.slice(0, at), ...items.slice(at + change.count)];
      }
    }
    requests++;
    const applied = limit === 0 ? 20 : Math.min(limit, 100);
    return {
      items: items.slice(offset, offset + applied),
      meta: { total: items.length, limit: applied, offset },
      receivedAt: 0,
      budget: undefined,
    };
  };
  const initialKeys = Array.from({ length: initial }, (_, i) => `k${i}`);
  return {
    fetch,
    requests: () => requests,
    /** Present from the first to the last request: in the initial list and never removed. */
    presentThroughout: () => initialKeys.filter((k) => !everRemoved.has(k)),
    everPresent,
  };
}

async function collect(
  list: ReturnType<typeof mutatingList>,
  options: Parameters<typeof paginate>[2] = {},
): Promise<{ keys: string[]; gaps: PaginationGap[] }> {
  const keys: string[] = [];
  const gaps: PaginationGap[] = [];
  for await (const entry of paginate(list.fetch, (e) => e.key, { ...options, onGap: (g) => gaps.push(g) })) {
    keys.push(entry.key);
  }
  return { keys, gaps };
}

const mutation = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    count: fc.integer({ min: 1, max: 30 }),
  }),
  fc.record({
    kind: fc.constant('remove' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    count: fc.integer({ min: 1, max: 30 }),
  }),
);
const headInsert = fc.record({
  kind: fc.constant('insert' as const),
  at: fc.constant(0),
  count: fc.integer({ min: 1, max: 250 }),
});

describe('pagination over a list that changes between pages', () => {
  it('an insertion at the head between pages causes neither a miss nor a duplicate', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 450 }),
        fc.array(fc.array(headInsert, { maxLength: 2 }), { maxLength: 8 }),
        async (initial, schedule) => {
          const list = mutatingList(initial, [[], ...schedule]);
          const { keys, gaps } = await collect(list);
          expect(new Set(keys).size).toBe(keys.length);
          expect(new Set(keys)).toEqual(new Set([...keys, ...list.presentThroughout()]));
          expect(gaps).toEqual([]);
        },
      ),
      { numRuns: 100 },
    );
  }, 60_000);

  it('the iterator yields every entry that was present throughout exactly once, whatever is inserted or removed where', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 450 }),
        fc.array(fc.array(mutation, { maxLength: 3 }), { maxLength: 10 }),
        async (initial, schedule) => {
          const list = mutatingList(initial, [[], ...schedule]);
          const { keys, gaps } = await collect(list);
          expect(gaps).toEqual([]);
          expect(new Set(keys).size).toBe(keys.length);
          const yielded = new Set(keys);
          expect(list.presentThroughout().filter((key) => !yielded.has(key))).toEqual([]);
          expect(keys.filter((key) => !list.everPresent.has(key))).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  }, 60_000);

  it('with small pages and large removals the guarantee still holds (backtracking re-finds its place)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 120 }),
        fc.array(fc.array(mutation, { maxLength: 3 }), { maxLength: 30 }),
        async (initial, schedule) => {
          const list = mutatingList(initial, [[], ...schedule]);
          const { keys, gaps } = await collect(list, { pageSize: 10, overlap: 3, maxBacktracks: 1000 });
          expect(gaps).toEqual([]);
          expect(new Set(keys).size).toBe(keys.length);
          const yielded = new Set(keys);
          expect(list.presentThroughout().filter((key) => !yielded.has(key))).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  }, 60_000);

  it('a list that changes on every page request (like the simulator shiftBetweenPages) is read completely, once, cheaply', async () => {
    const steady = fc.oneof(
      // The hard pattern: entries already read vanish at the head, new ones arrive at the end.
      fc.tuple(fc.integer({ min: 1, max: 45 }), fc.integer({ min: 1, max: 40 })).map(([removed, added]) => [
        { kind: 'remove' as const, at: 0, count: removed },
        { kind: 'insert' as const, at: 1, count: added },
      ]),
      fc.array(
        fc.record({
          kind: fc.constantFrom('insert' as const, 'remove' as const),
          at: fc.double({ min: 0, max: 1, noNaN: true }),
          count: fc.integer({ min: 1, max: 40 }),
        }),
        { maxLength: 2 },
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 450 }), steady, async (initial, everyPageRequest) => {
        const list = mutatingList(initial, [], everyPageRequest);
        const { keys, gaps } = await collect(list);
        expect(gaps).toEqual([]);
        expect(new Set(keys).size).toBe(keys.length);
        const yielded = new Set(keys);
        expect(list.presentThroughout().filter((key) => !yielded.has(key))).toEqual([]);
        // The adaptive overlap keeps it cheap: without it this pattern costs 100+ requests.
        expect(list.requests()).toBeLessThanOrEqual(40);
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('an unchanging list is read with limit=100 pages overlapping by 10 and ends at meta.total', async () => {
    const list = mutatingList(250, []);
    const { keys } = await collect(list);
    expect(keys).toEqual(Array.from({ length: 250 }, (_, i) => `k${i}`));
    // 0-99, 90-189, 180-249
    expect(list.requests()).toBe(3);
  });

  it('an empty list costs one request', async () => {
    const list = mutatingList(0, []);
    expect((await collect(list)).keys).toEqual([]);
    expect(list.requests()).toBe(1);
  });

  it('a short or empty page ends the iteration even when meta.total claims more (no infinite loop)', async () => {
    let calls = 0;
    const liar = async (offset: number): Promise<Page<Entry>> => {
      calls++;
      const items = offset === 0 ? [{ key: 'a' }, { key: 'b' }] : [];
      return { items, meta: { total: 1000, limit: 100, offset }, receivedAt: 0, budget: undefined };
    };
    const keys: string[] = [];
    const gaps: PaginationGap[] = [];
    for await (const e of paginate(liar, (x) => x.key, { onGap: (g) => gaps.push(g) })) keys.push(e.key);
    expect(keys).toEqual(['a', 'b']);
    expect(calls).toBe(1);
  });

  it('a list churning faster than it can be read ends and reports the possible gap', async () => {
    let n = 0;
    const churn = async (offset: number): Promise<Page<Entry>> => {
      // Every request sees a completely new list: nothing ever connects.
      const base = n++ * 1000;
      const items = Array.from({ length: 100 }, (_, i) => ({ key: `c${base + i}` }));
      return { items, meta: { total: 500, limit: 100, offset }, receivedAt: 0, budget: undefined };
    };
    const gaps: PaginationGap[] = [];
    for await (const _ of paginate(churn, (x) => x.key, { maxBacktracks: 5, onGap: (g) => gaps.push(g) })) {
      // drain
    }
    expect(gaps[0]?.reason).toBe('backtrack-budget-exhausted');
  });
});

describe('pagination through the client', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it('wall() pages with limit=100 and yields each post once while new posts arrive at the head', async () => {
    let posts = Array.from({ length: 230 }, (_, i) => aWallPost(1000 - i));
    let next = 1001;
    const server = await startTinyServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 20) || 20, 100);
      if (offset > 0) posts = [aWallPost(next++), aWallPost(next++), ...posts]; // newest first
      json(res, 200, aList(posts.slice(offset, offset + limit), { total: posts.length, limit, offset }));
    });
    const api = createApiClient({ baseUrl: server.url, clock: new ManualClock() });
    cleanups.push(
      () => server.close(),
      () => api.close(),
    );
    const ids: number[] = [];
    for await (const post of api.project('solar-kiosk', parseProjectKey('svc_proj_pagingKey')).wall())
      ids.push(post.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (let id = 771; id <= 1000; id++) expect(ids).toContain(id);
    expect(server.requests.every((r) => r.url.includes('limit=100'))).toBe(true);
  });
});
