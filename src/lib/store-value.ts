import { z } from 'zod';
import type { KeyValueStore } from './store-port.js';

export class StoredValueError extends Error {
  override readonly name = 'StoredValueError';
  constructor(
    readonly key: string,
    readonly issues: string,
    options?: ErrorOptions,
  ) {
    super(
      `stored value under "${key}" does not match its schema (${issues}); delete the key or the state file to rebuild it`,
      options,
    );
  }
}

/**
 * Keys per command of {@link KeyValueStore.getMany}: one MGET (Redis) or one `SELECT … IN` (SQLite, whose
 * bound parameters stop at 32,766) carries at most this many, so one answer stays under about a megabyte of
 * state heads and one slow batch does not hold the connection for the others.
 */
export const GET_MANY_BATCH = 500;

/** `items` in consecutive slices of at most `size` (the last one shorter). */
export function slicesOf<T>(items: readonly T[], size: number): T[][] {
  const slices: T[][] = [];
  for (let at = 0; at < items.length; at += size) slices.push(items.slice(at, at + size));
  return slices;
}

/** A {@link KeyValueStore.getMany} answer: absent (undefined or null) stays undefined, the rest is validated per key. */
export function parseStoredMany<T>(
  keys: readonly string[],
  raws: readonly unknown[],
  schema: z.ZodType<T>,
): (T | undefined)[] {
  return raws.map((raw, i) => parseStoredIfThere(keys[i] as string, raw, schema));
}

/** One read value: absent (undefined or null) stays undefined, the rest is validated as {@link parseStored}. */
function parseStoredIfThere<T>(key: string, raw: unknown, schema: z.ZodType<T>): T | undefined {
  return raw === undefined || raw === null ? undefined : parseStored(key, raw, schema);
}

/**
 * A value, and the one it replaces (a state stored before its layout changed) only for when the value is absent,
 * in one {@link KeyValueStore.getMany} (one MGET on Redis, one SELECT on SQLite) instead of a read and then
 * another: a project's first run read its state and its history that way, 4 round trips where 2 do (bench
 * scaleRedis). Each is validated as `get` validates it; the older one only when it is used.
 */
export async function getOrOlder<T, O>(
  store: Pick<KeyValueStore, 'getMany'>,
  current: readonly [key: string, schema: z.ZodType<T>],
  older: readonly [key: string, schema: z.ZodType<O>],
): Promise<readonly [T, undefined] | readonly [undefined, O | undefined]> {
  const [currentRaw, olderRaw] = await store.getMany([current[0], older[0]], z.unknown());
  const value = parseStoredIfThere(current[0], currentRaw, current[1]);
  return value !== undefined
    ? [value, undefined]
    : [undefined, parseStoredIfThere(older[0], olderRaw, older[1])];
}

/**
 * The one check every store applies to what it read: the value must fit its schema, or the
 * read throws {@link StoredValueError} (a value written by an older version or corrupted on
 * disk never becomes a silently wrong object).
 */
export function parseStored<T>(key: string, raw: unknown, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  throw new StoredValueError(key, issues);
}

/** Whether `key` contains one of `containing` (every key when none are given): deletePrefix's filter. */
export function keyContains(key: string, containing: readonly string[] | undefined): boolean {
  return containing === undefined || containing.some((fragment) => key.includes(fragment));
}
