import { inspect } from 'node:util';

/**
 * Everything an error shows when thrown, printed, inspected or serialised, its causes
 * included (five deep): what a test searches for a secret that must not be there.
 */
export function everythingOf(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as Error;
    parts.push(String(e), e.message ?? '', e.stack ?? '', inspect(e, { depth: 10, showHidden: true }));
    try {
      parts.push(JSON.stringify(e), JSON.stringify(Object.entries(e)));
    } catch {
      // A cause that cannot be serialised (a cycle) still shows everything above.
    }
    current = e.cause;
  }
  return parts.join('\n');
}
