/**
 * The route table: which endpoint a request path names. Kept apart from the
 * pipeline and the endpoints so the set of simulated paths reads in one place.
 */

export type ListKind = 'fundings' | 'orders' | 'subscribers' | 'wall' | 'blog';

export type Route =
  | { readonly name: 'openapi' }
  | { readonly name: 'identity' | 'profile' | 'own-incentives' | 'own-projects' }
  | { readonly name: 'project'; readonly lc: string }
  | { readonly name: 'incentives'; readonly lc: string }
  | { readonly name: 'incentive'; readonly lc: string; readonly id: string }
  | { readonly name: ListKind; readonly lc: string };

/** The route a path names, or null for a path the simulator does not serve (or a malformed escape in it). */
export function matchRoute(path: string): Route | null {
  if (path === '/openapi.json') return { name: 'openapi' };
  if (path === '/user/me') return { name: 'profile' };
  if (path === '/user/me/identity') return { name: 'identity' };
  if (path === '/user/me/incentives') return { name: 'own-incentives' };
  if (path === '/user/me/projects') return { name: 'own-projects' };
  const m =
    /^\/project\/([^/]+)(?:\/(incentives|blog|orders|subscribers|wall|fundings|incentive\/([^/]+)))?$/.exec(
      path,
    );
  if (m === null) return null;
  let lc: string;
  try {
    lc = decodeURIComponent(m[1] ?? '');
  } catch {
    return null;
  }
  const sub = m[2];
  if (sub === undefined) return { name: 'project', lc };
  if (m[3] !== undefined) return { name: 'incentive', lc, id: m[3] };
  return { name: sub as 'incentives' | ListKind, lc };
}
