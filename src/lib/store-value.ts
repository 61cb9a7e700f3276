import type { z } from 'zod';

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
