/**
 * The OpenAPI 3 description served at /openapi.json. Variants let tests of the
 * client's drift detection see a changed document without a second simulator.
 */

/** Named variants of the document; `baseline` matches what the simulator serves. */
export const openApiVariants = [
  'baseline',
  /** A new optional field `project.backer_goal` (additive change). */
  'field-added',
  /** `/project/{link_caption}/subscribers` disappears. */
  'endpoint-removed',
  /** The default of the blog `limit` parameter changes from 20 to 10. */
  'default-changed',
  /** `/project/{link_caption}/wall` gets a new query parameter `since`. */
  'parameter-added',
] as const;
export type OpenApiVariant = (typeof openApiVariants)[number];

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const int = { type: 'integer' };
const num = { type: 'number' };
const str = { type: 'string' };
const bool = { type: 'boolean' };
const obj = (properties: Json, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});

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

const schemas: Json = {
  ListMeta: obj({ total: int, limit: int, offset: int }),
  Error: obj({ error: str, error_description: { type: 'string', nullable: true } }, ['error']),
  FileObject: obj({ is_image: bool, thumbnails: obj({ '1x': str, '2x': str }, []) }, ['is_image']),
  Project: obj(
    {
      id: int,
      title: str,
      subtitle: str,
      link_caption: str,
      status: str,
      process_status: { type: 'string', nullable: true },
      currency: str,
      current_funding: num,
      total_funding: num,
      funding_threshold: num,
      project_type_all_or_nothing: bool,
      supporter_count: int,
      like_count: int,
      teaser_text: str,
      url: obj(
        {
          main: str,
          main_relative: str,
          comments: str,
          faq: str,
          widget: str,
          localized_urls: { type: 'object', additionalProperties: str },
        },
        ['main'],
      ),
    },
    [
      'id',
      'title',
      'subtitle',
      'link_caption',
      'status',
      'currency',
      'current_funding',
      'total_funding',
      'funding_threshold',
      'project_type_all_or_nothing',
      'supporter_count',
      'like_count',
      'teaser_text',
      'url',
    ],
  ),
  Incentive: obj(
    {
      id: int,
      title: str,
      description: str,
      price: num,
      quantity_total: int,
      quantity_remaining: int,
      quantity_sold: int,
      status: { type: 'string', enum: ['enabled', 'hidden'] },
      address_required: bool,
      is_available: bool,
      is_unlocked: bool,
      hidden_until_goal_reached: bool,
      funding_amount_until_unlock: num,
      is_in_stock: bool,
      url: str,
      gallery_images: { type: 'array', items: ref('FileObject') },
      image: { allOf: [ref('FileObject')], nullable: true, deprecated: true },
      project: obj({ id: int, title: str, link_caption: str, currency: str }, []),
    },
    [
      'id',
      'title',
      'description',
      'price',
      'quantity_total',
      'quantity_remaining',
      'quantity_sold',
      'status',
      'address_required',
      'is_available',
      'is_unlocked',
      'hidden_until_goal_reached',
      'is_in_stock',
      'url',
      'gallery_images',
    ],
  ),
  IncentiveOption: obj({
    id: int,
    name: str,
    position: int,
    group: { type: 'integer', minimum: 1, maximum: 3 },
  }),
  IncentiveDetail: {
    allOf: [
      ref('Incentive'),
      obj({
        variant_label_1: { type: 'string', nullable: true },
        variant_label_2: { type: 'string', nullable: true },
        variant_label_3: { type: 'string', nullable: true },
        variant_choices_1: { type: 'array', items: ref('IncentiveOption') },
        variant_choices_2: { type: 'array', items: ref('IncentiveOption') },
        variant_choices_3: { type: 'array', items: ref('IncentiveOption') },
      }),
    ],
  },
  BlogPost: obj(
    {
      id: int,
      title: str,
      text: str,
      type: { type: 'string', enum: ['text', 'story'] },
      status: str,
      release_timestamp: int,
      is_supporter_only: bool,
      is_locked: bool,
      description: { type: 'string', maxLength: 400 },
      image: { allOf: [ref('FileObject')], nullable: true },
      image_mobile: { allOf: [ref('FileObject')], nullable: true },
      gallery_images: { type: 'array', items: ref('FileObject') },
      embed_url_13: str,
      video: { type: 'object', nullable: true },
      reading_time_minutes: int,
    },
    [
      'id',
      'title',
      'text',
      'type',
      'status',
      'release_timestamp',
      'is_supporter_only',
      'is_locked',
      'reading_time_minutes',
    ],
  ),
  Order: obj({
    support_timestamp: int,
    updated_timestamp: int,
    collection_timestamp: int,
    transaction_number: str,
    total_amount: num,
    status_code: str,
    bill_address: obj({ firstname: str, lastname: str, city: str, country: str }, []),
    ordered_incentives: {
      type: 'array',
      items: obj({ id: int, count: int, price_single: num, price_total: num }),
    },
  }),
  Subscriber: obj({
    subscribed_timestamp: int,
    is_news_subscribed: bool,
    user: { ...obj({ id: int, first_name: str, last_name: str, is_public: bool }), nullable: true },
  }),
  WallPost: obj({
    id: int,
    message: str,
    status: str,
    created_timestamp: int,
    user: obj({ id: int, first_name: str, last_name: str, display_name: str }),
  }),
  Funding: obj({ support_timestamp: int, user: obj({ id: int, display_name: str }) }),
  Identity: obj({
    id: int,
    link_caption: str,
    scopes: { type: 'array', items: obj({ scope: str, endpoints: { type: 'array', items: str } }) },
  }),
  Profile: obj(
    {
      id: int,
      display_name: str,
      first_name: str,
      last_name: str,
      address_city: { type: 'string', nullable: true },
      biography: { type: 'string', nullable: true },
      profile_image: { type: 'object', nullable: true },
      own_projects_count: int,
      team_projects_count: int,
      supported_projects_count: int,
      registered_timestamp: int,
      url: obj({ main: str }, ['main']),
    },
    [
      'id',
      'display_name',
      'first_name',
      'last_name',
      'own_projects_count',
      'team_projects_count',
      'supported_projects_count',
      'registered_timestamp',
      'url',
    ],
  ),
  OwnIncentive: obj({
    id: int,
    title: str,
    price: num,
    is_available: bool,
    quantity_total: int,
    quantity_remaining: int,
    project: obj({ id: int, title: str, link_caption: str }),
  }),
  OwnProject: obj({
    id: int,
    title: str,
    link_caption: str,
    status: str,
    currency: str,
    current_funding: num,
    funding_threshold: num,
    supporter_count: int,
  }),
};

const incentiveSorts = ['sold', 'new', 'price-a', 'price-d', 'name-a', 'name-d', 'rand'];
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
export { incentiveSorts };

/** Builds the document for a variant; a fresh object each time (callers may mutate it). */
export function buildOpenApiDocument(variant: OpenApiVariant = 'baseline'): Json {
  const projectSchemas = structuredClone(schemas);
  if (variant === 'field-added') {
    const project = projectSchemas.Project as { properties: Json };
    project.properties.backer_goal = { type: 'integer', description: 'New: supporter goal' };
  }
  const listParams = [linkCaption, limitParam(), offsetParam];
  const wallParams: Json[] = [...listParams];
  if (variant === 'parameter-added') {
    wallParams.push({
      name: 'since',
      in: 'query',
      required: false,
      schema: int,
      description: 'Unix seconds',
    });
  }
  const paths: Json = {
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
          limitParam(variant === 'default-changed' ? 10 : 20),
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
  if (variant === 'endpoint-removed') delete paths['/project/{link_caption}/subscribers'];
  const version = {
    baseline: '1.0.0',
    'field-added': '1.1.0',
    'endpoint-removed': '2.0.0',
    'default-changed': '1.0.1',
    'parameter-added': '1.2.0',
  }[variant];
  return {
    openapi: '3.0.3',
    info: {
      title: 'Crowdfunding Project Data API (simulator)',
      version,
      description: 'Read access to crowdfunding projects with Project API Keys and User API Keys.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'svc_proj_... or svc_user_...' },
      },
      schemas: projectSchemas,
    },
  };
}
