import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the JavaScript heap grow past what survived its last full collection, in percent: the next
 * full collection starts at (1 + this / 100) times the live heap. V8's own factor moves between 1.1 and 4
 * with its view of the allocation rate, and fundbot allocates fast and briefly (every poll parses a page,
 * diffs it and lets it go): at 1,000 projects about 100 MB live, V8 kept 130-275 MB of old space committed
 * and the process's peak RSS reached 290-405 MB on the shared 2-core machine (bench `scale`, README
 * "Memory"). At 50 % the committed heap follows the live one at 1.5x, for more frequent (incremental,
 * mostly concurrent) full collections. A ratio, not a cap: a bigger fleet's heap still grows with it, and
 * nothing runs out of memory that would not otherwise.
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Sets {@link HEAP_GROWING_PERCENT} for this process, from its first line, so the image (`node
 * dist/src/main.js`) and `npm start` both get it, unless the operator gave the flag on the command line
 * (`node --heap-growing-percent=N dist/src/main.js`; NODE_OPTIONS refuses it). V8 reads the
 * factor at each full collection, so setting it after start-up takes effect at the next one.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((arg) => arg.startsWith('--heap-growing-percent'))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
