/**
 * The engine's API client as one chaos process reaches the simulator: every call is a step of the process (a
 * paused one sends nothing until it resumes; a dead one nothing ever), and the calls on the wire are counted, so
 * the world knows when a real HTTP exchange is still on its way before it moves the clock.
 */
import type { ApiClient } from '../../../src/api/index.js';
import type { ProcessLife } from '../process-life.js';

/** The client's methods that answer at once (handles and the last budget read). */
const syncMethods = new Set(['project', 'user', 'budget', 'pausedUntil', 'close']);

export interface TrackedApi {
  readonly api: ApiClient;
  /** Resolves once no call of this process is on the wire. */
  idle(): Promise<void>;
  readonly inFlight: number;
}

export function trackedApi(inner: ApiClient, life: ProcessLife): TrackedApi {
  let inFlight = 0;
  const waiters: (() => void)[] = [];
  const done = () => {
    inFlight -= 1;
    if (inFlight === 0) for (const wake of waiters.splice(0)) wake();
  };
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const call = (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(object, args);
        // The handles and the budget reads are synchronous: handles are wrapped in turn.
        if (syncMethods.has(String(property))) {
          return (...args: unknown[]) => {
            const result = call(...args);
            return result && typeof result === 'object' ? wrap(result) : result;
          };
        }
        // Every other method is a request: it leaves only while the process runs, its answer reaches it only then.
        return (...args: unknown[]) =>
          life.step(() => {
            inFlight += 1;
            return (call(...args) as Promise<unknown>).finally(done);
          });
      },
    });
  return {
    api: wrap(inner),
    idle: () => (inFlight === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve))),
    get inFlight() {
      return inFlight;
    },
  };
}
