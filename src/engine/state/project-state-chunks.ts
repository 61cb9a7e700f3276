import { createHash } from 'node:crypto';

/**
 * Content-defined chunking: a sequence is cut after every item whose key hashes to 0
 * modulo `averageSize` (and after `4 * averageSize` items at the latest). Where the cuts
 * fall depends only on the items around them, not on positions, so adding entries at one
 * end of a window, evicting at the other or changing one entry in the middle changes only
 * the chunks those items are in: a poll rewrites those chunks, never the whole list.
 * Costs nothing in requests; in bytes, about `averageSize` items per touched chunk.
 */
export function chunkBy<T>(items: readonly T[], keyOf: (item: T) => string, averageSize: number): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  for (const item of items) {
    current.push(item);
    if (fnv1a(keyOf(item)) % averageSize === 0 || current.length >= 4 * averageSize) {
      chunks.push(current);
      current = [];
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** 32-bit FNV-1a: cheap, and spreads sequential keys (user ids, seconds) evenly. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A digest of a value's JSON: tells "unchanged since written" without keeping the text.
 * Plain JSON (native, fast) for lists, whose items always come in one key order; a single
 * object (a project or reward snapshot) is digested with its keys sorted, because the public
 * and the keyed project read list the same fields in different orders.
 */
export function digestOf(value: unknown): string {
  if (value === null || typeof value !== 'object') return sha1(JSON.stringify(value, sortedKeys) as string);
  // A snapshot object or a chunk of an unchanged list is the same object commit after commit (state objects
  // are never mutated; layout.ts cuts a list once): its digest is computed once, not at every other feed's commit.
  let digest = objectDigests.get(value);
  if (digest === undefined) {
    digest = Array.isArray(value)
      ? sha1(`[${value.map(itemJson).join(',')}]`)
      : sha1(JSON.stringify(value, sortedKeys));
    objectDigests.set(value, digest);
  }
  return digest;
}

const objectDigests = new WeakMap<object, string>();

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

/**
 * Each item's JSON, remembered per object: a window's kept entries are the same objects poll
 * after poll (state objects are never mutated), so a commit serializes only what is new; the
 * text equals JSON.stringify's, so a digest of a chunk read back from the store matches.
 */
const itemTexts = new WeakMap<object, string>();
function itemJson(item: unknown): string {
  if (item === null || typeof item !== 'object') return JSON.stringify(item) ?? 'null';
  let text = itemTexts.get(item);
  if (text === undefined) {
    text = JSON.stringify(item);
    itemTexts.set(item, text);
  }
  return text;
}

function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((k) => [k, record[k]]),
  );
}

/** Which of a part's two store keys holds its current value. */
export type Slot = 'a' | 'b';

/** One stored chunk of a collection: its id (stable while its content lasts) and current slot. */
export interface ChunkRef {
  readonly id: number;
  readonly slot: Slot;
}

/** `3a,0b,7a`: the compact form of a collection's chunk list, in order (in the head or an index part). */
export function encodeRefs(refs: readonly ChunkRef[]): string {
  return refs.map((r) => `${r.id}${r.slot}`).join(',');
}

export function decodeRefs(text: string): ChunkRef[] {
  if (text === '') return [];
  return text.split(',').map((ref) => {
    const slot = ref.at(-1);
    const id = Number(ref.slice(0, -1));
    if ((slot !== 'a' && slot !== 'b') || !Number.isInteger(id) || id < 0) {
      throw new Error(`malformed chunk reference "${ref}"`);
    }
    return { id, slot };
  });
}

/** What is stored of a chunk: where, and a digest of its content. */
export interface StoredChunk extends ChunkRef {
  /** Undefined when not known (after a failed write): the chunk is then written again. */
  readonly digest: string | undefined;
}

/** A chunk to write: the slot NOT referenced by the stored head, so a crash before the head keeps the old one. */
export interface ChunkWrite extends ChunkRef {
  readonly index: number;
}

/**
 * Plans the writes of a collection's new chunks against what is stored. A chunk whose
 * digest matches a stored chunk keeps that chunk's id and slot (no write). Any other takes
 * the id of a stored chunk no longer used (or the smallest free id) and is written to the
 * OTHER slot of that id: a write never touches a slot the stored head references, so until
 * the head is written the stored state is exactly the previous commit's.
 */
export function planChunks(
  stored: readonly StoredChunk[],
  digests: readonly string[],
): { refs: ChunkRef[]; writes: ChunkWrite[] } {
  const byDigest = new Map<string, StoredChunk[]>();
  for (const chunk of stored) {
    if (chunk.digest === undefined) continue;
    byDigest.set(chunk.digest, [...(byDigest.get(chunk.digest) ?? []), chunk]);
  }
  const kept = new Set<number>();
  const refs: (ChunkRef | undefined)[] = digests.map((digest) => {
    const match = byDigest.get(digest)?.find((c) => !kept.has(c.id));
    if (match === undefined) return undefined;
    kept.add(match.id);
    return { id: match.id, slot: match.slot };
  });
  const freed = stored.filter((c) => !kept.has(c.id));
  const used = new Set(stored.map((c) => c.id));
  let nextFree = 0;
  const writes: ChunkWrite[] = [];
  const result = refs.map((ref, index): ChunkRef => {
    if (ref !== undefined) return ref;
    const reuse = freed.shift();
    let write: ChunkWrite;
    if (reuse !== undefined) {
      write = { index, id: reuse.id, slot: reuse.slot === 'a' ? 'b' : 'a' };
    } else {
      while (used.has(nextFree)) nextFree += 1;
      used.add(nextFree);
      write = { index, id: nextFree, slot: 'a' };
    }
    writes.push(write);
    return { id: write.id, slot: write.slot };
  });
  return { refs: result, writes };
}
