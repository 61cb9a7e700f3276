import { readFileSync } from 'node:fs';

/** The version from package.json, shown by /status and in the logs. */
export function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    // Compiled into dist/, package.json sits one level further up.
    try {
      const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
        version?: unknown;
      };
      return typeof pkg.version === 'string' ? pkg.version : 'unknown';
    } catch {
      return 'unknown';
    }
  }
}
