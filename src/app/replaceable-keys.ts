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
 * looked up under the ring's current key (one Map lookup a request; the handle is made again when it changed).
 */
export function withReplaceableKeys(api: ApiClient, ring: KeyRing): ApiClient {
  const current = (key: ProjectKey | UserKey | undefined) =>
    key !== undefined && key.kind === 'project' ? ring.current(key) : key;
  function project(linkCaption: string, key?: ProjectKey): ReturnType<ApiClient['project']> {
    if (key === undefined) return api.project(linkCaption);
    // The handle of the key in use, made again only when the ring swapped the key: a handle per property
    // read (two a request) fills its paths each time, ~1 % of a replica's CPU to its first polls (issue 33).
    let handle: { readonly key: ProjectKey; readonly api: ProjectApi } | undefined;
    const target = () => {
      const current = ring.current(key);
      if (handle?.key !== current) handle = { key: current, api: api.project(linkCaption, current) };
      return handle.api;
    };
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
