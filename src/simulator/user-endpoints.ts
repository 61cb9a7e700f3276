/**
 * Response builders of the /user/me endpoints (identity, profile, own incentives
 * and own projects), which only a User API Key may call, with their query
 * parsing and sorting.
 */
import type { Credential } from './credential.js';
import type { HandlerState } from './handler-state.js';
import { incentiveSorts, ownProjectSorts } from './openapi-paths.js';
import { parsePaging } from './pagination.js';
import { errors, json, type Reply } from './replies.js';
import type { UserScope } from './types.js';

/** The /user/me endpoints; a Project API Key gets insufficient_scope. */
export function userEndpoint(
  state: HandlerState,
  name: 'identity' | 'profile' | 'own-incentives' | 'own-projects',
  credential: Credential,
  query: URLSearchParams,
): Reply {
  if (credential.kind === 'none') return errors.authRequired();
  if (credential.kind === 'project')
    return errors.scope(
      name === 'identity' || name === 'profile' ? 'user:read' : 'project:read',
      'User API Key',
    );
  const userId = credential.userId;
  const user = state.users.get(userId);
  if (name === 'identity') {
    const endpoints: Record<UserScope, string[]> = {
      'user:read': ['GET /user/me', 'GET /user/me/identity'],
      'user:write': ['POST /user/me/image'],
      'project:read': ['GET /user/me/projects', 'GET /user/me/incentives', 'GET /project/{link_caption}'],
      'project:write': ['POST /project'],
      'contacts:read': ['GET /project/{link_caption}/orders', 'GET /project/{link_caption}/subscribers'],
    };
    return json(200, {
      data: {
        id: userId,
        link_caption: `user-${userId}`,
        scopes: [...credential.scopes].map((scope) => ({ scope, endpoints: endpoints[scope] })),
      },
    });
  }
  const projects = [...state.allProjects()];
  if (name === 'profile') {
    return json(200, {
      user: {
        id: user.id,
        display_name: user.displayName,
        first_name: user.firstName,
        last_name: user.lastName,
        address_city: user.city,
        biography: user.biography,
        profile_image: null,
        own_projects_count: projects.filter((p) => p.ownerId === userId).length,
        team_projects_count: projects.filter((p) => p.isTeamMember(userId) && p.ownerId !== userId).length,
        supported_projects_count: projects.filter((p) => p.isSupporter(userId)).length,
        registered_timestamp: Math.floor(user.registeredAt / 1000),
        url: {
          main: `${state.publicBaseUrl}/profile/user-${userId}`,
          settings: `${state.publicBaseUrl}/settings`,
        },
        company: null,
        liked_projects_count: 0,
      },
    });
  }
  if (!credential.scopes.has('project:read')) return errors.scope('project:read', 'User API Key');
  const { limit, offset } = parsePaging(query);
  const mine = projects.filter((p) => p.isTeamMember(userId));
  const sortParam = query.get('sort') || (name === 'own-projects' ? 'project-end-date-d' : 'sold');

  if (name === 'own-projects') {
    if (!(ownProjectSorts as readonly string[]).includes(sortParam))
      return errors.invalidValue('sort', ownProjectSorts);
    const sorted = sortBy(state, mine, sortParam, {
      'end-date': (p) => p.endAt,
      'activation-date': (p) => p.activationAt,
      title: (p) => p.title,
      'funding-sum': (p) => p.currentFunding,
      'support-count': (p) => p.supporterCount,
      'fan-count': (p) => p.likeCount,
    });
    const items = sorted.slice(offset, offset + limit).map((p) => p.ownProjectView());
    return json(200, { data: items, meta: { total: sorted.length, limit, offset } });
  }

  if (!incentiveSorts.includes(sortParam)) return errors.invalidValue('sort', incentiveSorts);
  const fundable = parseBoolean(query.get('fundable'));
  const favorite = parseBoolean(query.get('is_favorite'));
  if (fundable === 'invalid') return errors.invalidValue('fundable', ['true', 'false', '1', '0']);
  if (favorite === 'invalid') return errors.invalidValue('is_favorite', ['true', 'false', '1', '0']);
  const rows = mine
    .filter((p) => !fundable || (p.status === 'active' && !p.isPaidOut))
    .flatMap((p) => p.ownIncentives())
    .filter((r) => !favorite || r.favorite);
  const sorted = sortBy(
    state,
    rows,
    sortParam === 'sold' ? 'sold-d' : sortParam === 'new' ? 'new-d' : sortParam,
    {
      sold: (r) => r.sold,
      new: (r) => r.createdAt,
      price: (r) => r.item.price,
      name: (r) => r.item.title,
    },
  );
  const items = sorted.slice(offset, offset + limit).map((r) => r.item);
  return json(200, { data: items, meta: { total: sorted.length, limit, offset } });
}

function parseBoolean(value: string | null): boolean | 'invalid' {
  if (value === null || value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  return 'invalid';
}

/** Sorts by `<prefix>-<field>-<a|d>` (prefix optional) or shuffles for `rand`, with the seeded server random. */
function sortBy<T>(
  state: HandlerState,
  items: T[],
  sort: string,
  fields: Record<string, (item: T) => number | string>,
): T[] {
  if (sort === 'rand') {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(state.random.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  }
  const descending = sort.endsWith('-d');
  const field = sort.replace(/^project-/, '').replace(/-[ad]$/, '');
  const get = fields[field];
  if (get === undefined) return items;
  return [...items].sort((a, b) => {
    const x = get(a);
    const y = get(b);
    const cmp = typeof x === 'string' && typeof y === 'string' ? x.localeCompare(y) : Number(x) - Number(y);
    return descending ? -cmp : cmp;
  });
}
