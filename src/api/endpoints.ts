/**
 * The endpoint table of the spec, in one place: path template, credential, scope
 * and whether a retry is safe. The client derives error hints (which scope to add)
 * and its retry policy from here, so nothing has to be parsed out of
 * `error_description`.
 */

export type CredentialKind = 'project' | 'user' | 'none';

export interface EndpointSpec {
  /** Stable name, also used as the metrics label. */
  readonly id: EndpointId;
  readonly method: 'GET' | 'POST';
  /** Path template as in the spec, e.g. `/project/{link_caption}/wall`. */
  readonly template: string;
  /** Which credential the endpoint needs (`none`: public). */
  readonly credential: CredentialKind;
  /** Scope the credential must carry, from the spec's endpoint table. */
  readonly scope?: string;
  /**
   * From the spec's retry table: safe to repeat after a timeout or 5xx. Only
   * these are retried automatically; a future `POST /project` (not idempotent,
   * no Idempotency-Key) must read state back instead.
   */
  readonly idempotent: boolean;
}

export type EndpointId =
  | 'project'
  | 'incentives'
  | 'incentive'
  | 'blog'
  | 'wall'
  | 'fundings'
  | 'identity'
  | 'me'
  | 'ownIncentives'
  | 'ownProjects'
  | 'openapi'
  | 'createProject';

const table: Record<EndpointId, Omit<EndpointSpec, 'id'>> = {
  project: {
    method: 'GET',
    template: '/project/{link_caption}',
    credential: 'project',
    scope: 'project:read',
    idempotent: true,
  },
  incentives: {
    method: 'GET',
    template: '/project/{link_caption}/incentives',
    credential: 'project',
    scope: 'incentives:read',
    idempotent: true,
  },
  incentive: {
    method: 'GET',
    template: '/project/{link_caption}/incentive/{id}',
    credential: 'project',
    scope: 'incentives:read',
    idempotent: true,
  },
  blog: {
    method: 'GET',
    template: '/project/{link_caption}/blog',
    credential: 'project',
    scope: 'blog:read',
    idempotent: true,
  },
  wall: {
    method: 'GET',
    template: '/project/{link_caption}/wall',
    credential: 'project',
    scope: 'wall:read',
    idempotent: true,
  },
  fundings: {
    method: 'GET',
    template: '/project/{link_caption}/fundings',
    credential: 'project',
    scope: 'fundings:read',
    idempotent: true,
  },
  identity: {
    method: 'GET',
    template: '/user/me/identity',
    credential: 'user',
    scope: 'user:read',
    idempotent: true,
  },
  me: { method: 'GET', template: '/user/me', credential: 'user', scope: 'user:read', idempotent: true },
  ownIncentives: {
    method: 'GET',
    template: '/user/me/incentives',
    credential: 'user',
    scope: 'project:read',
    idempotent: true,
  },
  ownProjects: {
    method: 'GET',
    template: '/user/me/projects',
    credential: 'user',
    scope: 'project:read',
    idempotent: true,
  },
  openapi: { method: 'GET', template: '/openapi.json', credential: 'none', idempotent: true },
  // Not called by fundbot; listed so the retry policy has a non-idempotent case to honour.
  createProject: {
    method: 'POST',
    template: '/project',
    credential: 'user',
    scope: 'project:write',
    idempotent: false,
  },
};

export const endpoints: Readonly<Record<EndpointId, EndpointSpec>> = Object.fromEntries(
  Object.entries(table).map(([id, spec]) => [id, { id, ...spec }]),
) as Record<EndpointId, EndpointSpec>;

/** Fills `{name}` placeholders, URL-encoding each value (a link caption is user-chosen text). */
export function fillPath(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`missing path parameter ${name} for ${template}`);
    return encodeURIComponent(String(value));
  });
}
