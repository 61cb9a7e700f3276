/**
 * The `paths` of the OpenAPI document: every GET endpoint with its parameters,
 * required scope, security and response envelope, plus the sort values the
 * handler validates against. Separate from the schema components, which
 * describe the wire format these operations return.
 */
import { bool, int, type Json, obj, ref, str } from './openapi-schemas.js';

const linkCaption = {
  name: 'link_caption',
  in: 'path',
  required: true,
  schema: str,
  description: 'Project slug',
};
const limitParam = (defaultLimit = 20) => ({
  name: 'limit',
  in: 'query',
  required: false,
  schema: { type: 'integer', default: defaultLimit, minimum: 0, maximum: 100 },
  description: 'Page size; larger values are clamped to 100; 0 or empty means the default',
});
const offsetParam = {
  name: 'offset',
  in: 'query',
  required: false,
  schema: { type: 'integer', default: 0, minimum: 0 },
};

function listOf(item: string) {
  return obj({ data: { type: 'array', items: ref(item) }, meta: ref('ListMeta') });
}

function operation(
  operationId: string,
  scope: string,
  parameters: Json[],
  schema: Json,
  security: 'project' | 'user' | 'optional',
): Json {
  const errors = {
    '401': {
      description: 'auth_required / invalid_api_key',
      content: { 'application/json': { schema: ref('Error') } },
    },
    '403': {
      description: 'insufficient_scope, key_project_mismatch, project_access_denied',
      content: { 'application/json': { schema: ref('Error') } },
    },
    '429': {
      description: 'rate_limit_exceeded; see Retry-After',
      headers: { 'Retry-After': { schema: int } },
      content: { 'application/json': { schema: ref('Error') } },
    },
  };
  return {
    operationId,
    description: `Requires scope ${scope}`,
    'x-required-scope': scope,
    parameters,
    security: security === 'optional' ? [{}, { bearerAuth: [] }] : [{ bearerAuth: [] }],
    responses: { '200': { description: 'Success', content: { 'application/json': { schema } } }, ...errors },
  };
}

/** Values of `sort` on /user/me/incentives; the request handler accepts exactly these. */
export const incentiveSorts = ['sold', 'new', 'price-a', 'price-d', 'name-a', 'name-d', 'rand'];
/** Values of `sort` on /user/me/projects; the request handler accepts exactly these. */
export const ownProjectSorts = [
  'project-end-date-d',
  'project-end-date-a',
  'project-activation-date-d',
  'project-activation-date-a',
  'project-title-d',
  'project-title-a',
  'project-funding-sum-d',
  'project-funding-sum-a',
  'project-support-count-d',
  'project-support-count-a',
  'project-fan-count-d',
  'project-fan-count-a',
  'rand',
] as const;

/** What the document variants change in the paths (see `openApiVariants`). */
export interface PathOptions {
  /** Default of the blog `limit` parameter. */
  readonly blogDefaultLimit: number;
  /** Whether `/project/{link_caption}/wall` has the extra query parameter `since`. */
  readonly wallSinceParameter: boolean;
}

/** Builds the `paths` object; a fresh object each time. */
export function buildPaths(options: PathOptions): Json {
  const listParams = [linkCaption, limitParam(), offsetParam];
  const wallParams: Json[] = [...listParams];
  if (options.wallSinceParameter) {
    wallParams.push({
      name: 'since',
      in: 'query',
      required: false,
      schema: int,
      description: 'Unix seconds',
    });
  }
  return {
    '/project/{link_caption}': {
      get: operation(
        'getProject',
        'project:read',
        [linkCaption],
        obj({ project: ref('Project'), status: { type: 'integer', deprecated: true, enum: [0] } }),
        'optional',
      ),
    },
    '/project/{link_caption}/incentives': {
      get: operation('listIncentives', 'incentives:read', listParams, listOf('Incentive'), 'project'),
    },
    '/project/{link_caption}/incentive/{id}': {
      get: operation(
        'getIncentive',
        'incentives:read',
        [linkCaption, { name: 'id', in: 'path', required: true, schema: int }],
        obj({ data: ref('IncentiveDetail') }),
        'project',
      ),
    },
    '/project/{link_caption}/blog': {
      get: operation(
        'listBlogPosts',
        'blog:read',
        [
          linkCaption,
          {
            name: 'blog_type',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: ['text', 'story'], default: 'text' },
          },
          offsetParam,
          limitParam(options.blogDefaultLimit),
          {
            name: 'include_supporter_only',
            in: 'query',
            required: false,
            schema: { type: 'integer', enum: [0, 1], default: 0 },
          },
        ],
        listOf('BlogPost'),
        'project',
      ),
    },
    '/project/{link_caption}/orders': {
      get: operation('listOrders', 'orders:read', listParams, listOf('Order'), 'project'),
    },
    '/project/{link_caption}/subscribers': {
      get: operation('listSubscribers', 'subscribers:read', listParams, listOf('Subscriber'), 'project'),
    },
    '/project/{link_caption}/wall': {
      get: operation('listWallPosts', 'wall:read', wallParams, listOf('WallPost'), 'project'),
    },
    '/project/{link_caption}/fundings': {
      get: operation('listFundings', 'fundings:read', listParams, listOf('Funding'), 'project'),
    },
    '/user/me/identity': {
      get: operation('getIdentity', 'user:read', [], obj({ data: ref('Identity') }), 'user'),
    },
    '/user/me': {
      get: operation('getProfile', 'user:read', [], obj({ user: ref('Profile') }), 'user'),
    },
    '/user/me/incentives': {
      get: operation(
        'listOwnIncentives',
        'project:read',
        [
          {
            name: 'sort',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: incentiveSorts, default: 'sold' },
          },
          { name: 'fundable', in: 'query', required: false, schema: bool },
          { name: 'is_favorite', in: 'query', required: false, schema: bool },
          limitParam(),
          offsetParam,
        ],
        listOf('OwnIncentive'),
        'user',
      ),
    },
    '/user/me/projects': {
      get: operation(
        'listOwnProjects',
        'project:read',
        [
          {
            name: 'sort',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: [...ownProjectSorts], default: 'project-end-date-d' },
          },
          limitParam(),
          offsetParam,
        ],
        listOf('OwnProject'),
        'user',
      ),
    },
  };
}
