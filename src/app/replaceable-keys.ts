import type { ApiClient, ProjectApi, ProjectKey, UserKey } from '../api/index.js';

/**
 * The keys in use, by the key each project was configured with. The engine keeps
 * the configured key object for its whole life (its constructor takes the
 * projects once); {@link withReplaceableKeys} looks the current key up on every
 * request, so a replaced key takes effect at the next request without touching
 * the engine.
 */
export class KeyRing {
  readonly #current = new Map<ProjectKey, ProjectKey>();

  /** The key to use for requests of the project configured with `configured`. */
  current(configured: ProjectKey): ProjectKey {
    return this.#current.get(configured) ?? configured;
  }

  replace(configured: ProjectKey, next: ProjectKey): void {
    this.#current.set(configured, next);
  }
}

/**
 * The seam that lets a key be swapped under a running engine: an ApiClient that
 * forwards everything to `api`, with each project request, budget and pause
 * looked up under the ring's current key. Costs one small object per request.
 */
export function withReplaceableKeys(api: ApiClient, ring: KeyRing): ApiClient {
  const current = (key: ProjectKey | UserKey | undefined) =>
    key !== undefined && key.kind === 'project' ? ring.current(key) : key;
  function project(linkCaption: string, key?: ProjectKey): ReturnType<ApiClient['project']> {
    if (key === undefined) return api.project(linkCaption);
    const target = () => api.project(linkCaption, ring.current(key));
    return new Proxy({ linkCaption } as ProjectApi, {
      get(base, property) {
        if (property === 'linkCaption') return base.linkCaption;
        const value = Reflect.get(target(), property) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const live = target();
          return (Reflect.get(live, property) as (...a: unknown[]) => unknown).apply(live, args);
        };
      },
    });
  }
  return {
    project: project as ApiClient['project'],
    user: (key) => api.user(key),
    openapi: (signal) => api.openapi(signal),
    budget: (key) => api.budget(current(key)),
    pausedUntil: (key) => api.pausedUntil(current(key)),
    close: () => api.close(),
  };
}
