import type { z } from 'zod';
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
  return raws.map((raw, i) =>
    raw === undefined || raw === null ? undefined : parseStored(keys[i] as string, raw, schema),
  );
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
