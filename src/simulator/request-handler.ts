import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../lib/clock.js';
import type { Random } from '../lib/random.js';
import type { FaultInjector } from './faults.js';
import type { KeyRecord, KeyRegistry } from './keys.js';
import type { NameGenerator } from './names.js';
import { incentiveSorts, ownProjectSorts } from './openapi.js';
import { parsePaging } from './pagination.js';
import type { RateDecision, RateLimiter } from './rate-limiter.js';
import type { Page, SimProject } from './sim-project.js';
import type { ListOrder, ProjectScope, RateLimit, RateLimits, RequestLogEntry, UserScope } from './types.js';
import type { UserRegistry } from './users.js';

/** Everything the request pipeline reads from the simulator. */
export interface HandlerState {
  readonly clock: Clock;
  readonly keys: KeyRegistry;
  readonly users: UserRegistry;
  readonly names: NameGenerator;
  readonly limiter: RateLimiter;
  readonly faults: FaultInjector;
  /** Randomness of the server itself (sort=rand). */
  readonly random: Random;
  readonly publicBaseUrl: string;
  limits(): RateLimits;
  listOrder(): ListOrder;
  projectByCaption(linkCaption: string): SimProject | undefined;
  allProjects(): Iterable<SimProject>;
  openApiDocument(): unknown;
  log(entry: RequestLogEntry): void;
  /** Real-time delay for the `slow` fault; resolves early (with false) when the simulator closes. */
  delay(ms: number): Promise<boolean>;
}

interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
  /** Raw body text (e.g. malformed JSON or an HTML proxy page). */
  readonly raw?: string;
  readonly contentType?: string;
}

type Credential = { readonly kind: 'none' } | KeyRecord;

const json = (status: number, body: unknown, headers?: Record<string, string>): Reply =>
  headers === undefined ? { status, body } : { status, body, headers };
const apiError = (status: number, error: string, description: string | null): Reply =>
  json(status, { error, error_description: description });
/** Framework-level errors: prose codes, description always null. */
const frameworkError = (status: number, error: string): Reply => apiError(status, error, null);

const errors = {
  authRequired: () =>
    apiError(401, 'auth_required', 'This endpoint needs an API key: send it as Authorization: Bearer <key>.'),
  invalidKey: () =>
    apiError(401, 'invalid_api_key', 'The API key is invalid or was deleted: create a new key and use it.'),
  scope: (scope: string, keyType = 'key') =>
    apiError(
      403,
      'insufficient_scope',
      `This endpoint needs the ${scope} scope: create a ${keyType} with the ${scope} scope.`,
    ),
  mismatch: () =>
    apiError(
      403,
      'key_project_mismatch',
      'This Project API Key belongs to another project: use a key of this project.',
    ),
  accessDenied: () =>
    apiError(
      403,
      'project_access_denied',
      'The project does not exist or is not visible to this credential.',
    ),
  invalidValue: (name: string, allowed: readonly string[]) =>
    apiError(400, 'invalid_value', `Invalid value for ${name}: allowed are ${allowed.join(', ')}.`),
};

type ListKind = 'fundings' | 'orders' | 'subscribers' | 'wall' | 'blog';

type Route =
  | { readonly name: 'openapi' }
  | { readonly name: 'identity' | 'profile' | 'own-incentives' | 'own-projects' }
  | { readonly name: 'project'; readonly lc: string }
  | { readonly name: 'incentives'; readonly lc: string }
  | { readonly name: 'incentive'; readonly lc: string; readonly id: string }
  | { readonly name: ListKind; readonly lc: string };

const projectScopeOf: Record<string, ProjectScope> = {
  project: 'project:read',
  incentives: 'incentives:read',
  incentive: 'incentives:read',
  blog: 'blog:read',
  fundings: 'fundings:read',
  orders: 'orders:read',
  subscribers: 'subscribers:read',
  wall: 'wall:read',
};

function matchRoute(path: string): Route | null {
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

function parseBoolean(value: string | null): boolean | 'invalid' {
  if (value === null || value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  return 'invalid';
}

function rateHeaders(decision: RateDecision, prefix: string): Record<string, string> {
  return {
    [`${prefix}Day-Limit`]: String(decision.limit.perDay),
    [`${prefix}Day-Remaining`]: String(decision.dayRemaining),
    [`${prefix}Day-Reset`]: String(decision.dayReset),
    [`${prefix}Minute-Limit`]: String(decision.limit.perMinute),
    [`${prefix}Minute-Remaining`]: String(decision.minuteRemaining),
    [`${prefix}Minute-Reset`]: String(decision.minuteReset),
  };
}

function listBody<T>(page: Page<T>, limit: number, offset: number) {
  return { data: page.items, meta: { total: page.total, limit, offset } };
}

/** Sets `field` (or the first numeric field) of the first item to a wrongly typed value. */
function breakSchema(body: unknown, field: string | undefined, value: unknown, hasValue: boolean): void {
  if (typeof body !== 'object' || body === null) return;
  const envelope = body as Record<string, unknown>;
  const target = Array.isArray(envelope.data)
    ? envelope.data[0]
    : (envelope.data ?? envelope.project ?? envelope.user);
  if (typeof target !== 'object' || target === null) {
    // An empty list: break the envelope itself.
    if (typeof envelope.meta === 'object' && envelope.meta !== null)
      (envelope.meta as Record<string, unknown>).total = 'many';
    return;
  }
  const item = target as Record<string, unknown>;
  const key = field ?? Object.keys(item).find((k) => typeof item[k] === 'number') ?? Object.keys(item)[0];
  if (key === undefined) return;
  const current = item[key];
  item[key] = hasValue ? value : typeof current === 'number' ? String(current) : 12345;
}

/** Adds unknown fields to the envelope and every item: clients must ignore them. */
function addExtraFields(body: unknown): void {
  if (typeof body !== 'object' || body === null) return;
  const envelope = body as Record<string, unknown>;
  envelope.x_future_envelope_field = { nested: true };
  const extend = (item: unknown) => {
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      Object.assign(item, {
        x_future_field: 'ignored',
        x_future_object: { a: 1, b: [1, 2] },
        x_future_null: null,
      });
    }
  };
  if (Array.isArray(envelope.data)) envelope.data.forEach(extend);
  else extend(envelope.data);
  extend(envelope.project);
  extend(envelope.user);
  extend(envelope.meta);
}

/**
 * The HTTP pipeline: route, faults, credential, rate limit, endpoint, response
 * faults, send. Every request is logged (without the key).
 */
export function createRequestHandler(state: HandlerState) {
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = state.clock.now();
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://simulator.invalid');
    } catch {
      res.writeHead(400, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: 'bad request', error_description: null }));
      return;
    }
    const path = url.pathname;
    const method = req.method ?? 'GET';
    let credentialKind: RequestLogEntry['credential'] = 'none';
    let fault: string | undefined;
    let logged = false;
    const log = (status: number) => {
      if (logged) return;
      logged = true;
      const entry: RequestLogEntry = {
        at,
        method,
        path,
        query: Object.fromEntries(url.searchParams),
        status,
        credential: credentialKind,
        ...(fault === undefined ? {} : { fault }),
      };
      state.log(entry);
    };
    // A client that gives up on a slow response still leaves a log entry.
    res.on('close', () => log(res.headersSent ? res.statusCode : 499));

    const send = (reply: Reply, extraHeaders: Record<string, string> = {}) => {
      if (res.destroyed || res.writableEnded) return;
      const text = reply.raw ?? JSON.stringify(reply.body);
      res.writeHead(reply.status, {
        'content-type': reply.contentType ?? 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(text),
        ...extraHeaders,
        ...reply.headers,
      });
      log(reply.status);
      res.end(text);
    };

    if (method === 'OPTIONS') {
      send(
        { status: 204, body: null, raw: '' },
        {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': 'GET, POST, OPTIONS',
          'access-control-allow-headers': 'Authorization, Content-Type',
        },
      );
      return;
    }
    const route = matchRoute(path);
    if (route === null || (method !== 'GET' && method !== 'HEAD')) {
      // Write operations are not simulated: they answer like an unknown route.
      send(frameworkError(404, 'resource not found'));
      return;
    }
    if (route.name === 'incentive' && !/^\d+$/.test(route.id)) {
      send(frameworkError(400, 'bad request'));
      return;
    }

    // Faults that replace the whole response (as an overloaded proxy or a new server version would).
    const slow = state.faults.take('slow', path);
    if (slow !== undefined) {
      fault = 'slow';
      const completed = await state.delay(Number(slow.params.delayMs));
      if (!completed) {
        // The simulator is closing: record the request as abandoned.
        log(499);
        return;
      }
    }
    const replaced = takeReplacingFault(state, path);
    if (replaced !== undefined) {
      fault = replaced.fault;
      send(replaced.reply);
      return;
    }

    // Credential: only `Authorization: Bearer`; any other scheme counts as no credential.
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    let credential: Credential = { kind: 'none' };
    if (match?.[1] !== undefined) {
      const record = state.keys.lookup(match[1]);
      if (record === undefined) {
        credentialKind = 'invalid';
        send(errors.invalidKey());
        return;
      }
      credential = record;
      credentialKind = record.kind;
    }

    // Rate limit per key, or per IP without a credential.
    const limits = state.limits();
    let limit: RateLimit;
    if (credential.kind === 'project') {
      const plan = credential.plan;
      limit = plan === 'pro' || plan === 'premium' || plan === 'enterprise' ? limits[plan] : limits.public;
    } else limit = credential.kind === 'user' ? limits.user : limits.public;
    const bucket = credential.kind === 'none' ? `ip:${req.socket.remoteAddress ?? 'unknown'}` : credential.id;
    const decision = state.limiter.take(bucket, limit, state.clock.now());
    const headers: Record<string, string> = rateHeaders(
      decision,
      credential.kind === 'none' ? 'X-RateLimit-Public-' : 'X-RateLimit-',
    );
    if (credential.kind !== 'none') headers['access-control-allow-origin'] = '*';
    if (decision.exceeded !== undefined) {
      const { window, retryAfterSeconds } = decision.exceeded;
      headers['retry-after'] = String(retryAfterSeconds);
      send(
        apiError(
          429,
          'rate_limit_exceeded',
          `Rate limit of the ${window} window exceeded: wait ${retryAfterSeconds} seconds before retrying.`,
        ),
        headers,
      );
      return;
    }

    let reply = dispatch(state, route, credential, url.searchParams, path);
    if (reply.status === 200 && state.faults.hasRules)
      reply = applyResponseFaults(state, path, reply, (name) => {
        fault = fault === undefined ? name : `${fault},${name}`;
      });
    send(reply, headers);
  };
}

function takeReplacingFault(state: HandlerState, path: string): { fault: string; reply: Reply } | undefined {
  const faults = state.faults;
  const unknown = faults.take('unknown-error', path);
  if (unknown !== undefined) {
    const { code, status, description } = unknown.params as {
      code: string;
      status: number;
      description: string | null;
    };
    return { fault: 'unknown-error', reply: apiError(status, code, description) };
  }
  const serverError = faults.take('server-error', path);
  if (serverError !== undefined) {
    const { status, html } = serverError.params as { status: number; html: boolean };
    return { fault: 'server-error', reply: serverErrorReply(status, html) };
  }
  const storm = faults.take('rate-limit-storm', path);
  if (storm !== undefined) {
    const seconds = Number(storm.params.retryAfterSeconds);
    return {
      fault: 'rate-limit-storm',
      reply: json(
        429,
        {
          error: 'rate_limit_exceeded',
          error_description: `Rate limit of the minute window exceeded: wait ${seconds} seconds before retrying.`,
        },
        { 'retry-after': String(seconds) },
      ),
    };
  }
  const random = faults.takeRandom5xx(path);
  if (random !== undefined) return { fault: 'random-5xx', reply: serverErrorReply(random, false) };
  return undefined;
}

function serverErrorReply(status: number, html: boolean): Reply {
  if (html) {
    return {
      status,
      body: null,
      raw: `<html><body><h1>${status} Bad Gateway</h1></body></html>`,
      contentType: 'text/html',
    };
  }
  return apiError(status, 'server error', null);
}

function applyResponseFaults(
  state: HandlerState,
  path: string,
  reply: Reply,
  note: (name: string) => void,
): Reply {
  const faults = state.faults;
  // Copy before mutating: a body may be shared (the cached OpenAPI document).
  const body = structuredClone(reply.body);
  if (faults.take('extra-fields', path) !== undefined) {
    addExtraFields(body);
    note('extra-fields');
  }
  const violation = faults.take('schema-violation', path);
  if (violation !== undefined) {
    const { field, value, hasValue } = violation.params as {
      field?: string;
      value: unknown;
      hasValue: boolean;
    };
    breakSchema(body, field, value, hasValue);
    note('schema-violation');
  }
  if (faults.take('malformed-json', path) !== undefined) {
    const text = JSON.stringify(body);
    note('malformed-json');
    return { ...reply, raw: text.slice(0, Math.max(1, Math.floor(text.length / 2))) };
  }
  return { ...reply, body };
}

function dispatch(
  state: HandlerState,
  route: Route,
  credential: Credential,
  query: URLSearchParams,
  path: string,
): Reply {
  switch (route.name) {
    case 'openapi':
      return json(200, state.openApiDocument());
    case 'project':
      return getProject(state, route.lc, credential);
    case 'identity':
    case 'profile':
    case 'own-incentives':
    case 'own-projects':
      return userEndpoint(state, route.name, credential, query);
    default:
      return projectSubEndpoint(state, route, credential, query, path);
  }
}

function getProject(state: HandlerState, lc: string, credential: Credential): Reply {
  const project = state.projectByCaption(lc);
  const publicView = () =>
    project !== undefined && project.status !== 'new'
      ? json(200, { project: project.projectView(false), status: 0 })
      : errors.accessDenied();
  if (credential.kind === 'project') {
    if (project === undefined) return errors.accessDenied();
    if (credential.linkCaption !== lc) return errors.mismatch();
    if (!credential.scopes.has('project:read')) return errors.scope('project:read', 'Project API Key');
    return json(200, { project: project.projectView(true), status: 0 });
  }
  if (credential.kind === 'user') {
    // A team member's User key with project:read sees the full view (drafts too); anyone else the public view.
    if (project?.isTeamMember(credential.userId) && credential.scopes.has('project:read')) {
      return json(200, { project: project.projectView(true), status: 0 });
    }
    return publicView();
  }
  return publicView();
}

/**
 * The /project/{lc}/... endpoints are Project API Key endpoints. A User API Key is
 * accepted too when its user is owner, manager or team member of the project and
 * the key has project:read (orders and subscribers also need contacts:read): that
 * is what the User key scopes grant in the spec. Other users: project_access_denied.
 */
function projectSubEndpoint(
  state: HandlerState,
  route: Exclude<Extract<Route, { lc: string }>, { name: 'project' }>,
  credential: Credential,
  query: URLSearchParams,
  path: string,
): Reply {
  if (credential.kind === 'none') return errors.authRequired();
  const project = state.projectByCaption(route.lc);
  if (project === undefined) return errors.accessDenied();
  let entitledToSupporterContent = false;
  if (credential.kind === 'project') {
    if (credential.linkCaption !== route.lc) return errors.mismatch();
    const scope = projectScopeOf[route.name] as ProjectScope;
    if (!credential.scopes.has(scope)) return errors.scope(scope, 'Project API Key');
  } else {
    if (!project.isTeamMember(credential.userId)) return errors.accessDenied();
    if (!credential.scopes.has('project:read')) return errors.scope('project:read', 'User API Key');
    if (
      (route.name === 'orders' || route.name === 'subscribers') &&
      !credential.scopes.has('contacts:read')
    ) {
      return errors.scope('contacts:read', 'User API Key');
    }
    entitledToSupporterContent = true;
  }

  const { limit, offset } = parsePaging(query);
  const order = state.listOrder();
  switch (route.name) {
    case 'incentives':
      return json(200, listBody(project.rewardsPage(offset, limit), limit, offset));
    case 'incentive': {
      const detail = project.rewardDetail(Number(route.id));
      if (detail === undefined)
        return apiError(404, 'not_found', `Reward ${route.id} does not exist in this project.`);
      return json(200, { data: detail });
    }
    case 'blog': {
      const type = query.get('blog_type') || 'text';
      if (type !== 'text' && type !== 'story') return errors.invalidValue('blog_type', ['text', 'story']);
      const include = query.get('include_supporter_only') ?? '0';
      if (include !== '0' && include !== '1' && include !== '') {
        return errors.invalidValue('include_supporter_only', ['0', '1']);
      }
      shiftIfAsked(state, project, 'blog', path, offset, order, type);
      // A Project API Key never unlocks supporter-only content; a team member's User key with the flag does.
      const entitled = entitledToSupporterContent && include === '1';
      return json(200, listBody(project.blogPage(type, offset, limit, order, entitled), limit, offset));
    }
    case 'orders':
      if (!project.fundedSuccessfully) {
        return apiError(
          403,
          'funding_not_successful',
          'Orders are available once the project is successfully funded (100% of the goal).',
        );
      }
      shiftIfAsked(state, project, 'orders', path, offset, order);
      return json(200, listBody(project.ordersPage(offset, limit, order), limit, offset));
    case 'subscribers':
      shiftIfAsked(state, project, 'subscribers', path, offset, order);
      return json(200, listBody(project.subscribersPage(offset, limit, order), limit, offset));
    case 'wall':
      shiftIfAsked(state, project, 'wall', path, offset, order);
      return json(200, listBody(project.wallPage(offset, limit, order), limit, offset));
    case 'fundings':
      shiftIfAsked(state, project, 'fundings', path, offset, order);
      return json(200, listBody(project.fundingsPage(offset, limit, order), limit, offset));
  }
}

/** The shiftBetweenPages fault: real changes to the list between two page requests. */
function shiftIfAsked(
  state: HandlerState,
  project: SimProject,
  kind: ListKind,
  path: string,
  offset: number,
  order: ListOrder,
  blogType: 'text' | 'story' = 'text',
): void {
  if (offset <= 0) return;
  const shift = state.faults.take('shift-between-pages', path);
  if (shift === undefined) return;
  const insert = Number(shift.params.insert);
  const remove = Number(shift.params.remove);
  // Remove first, from the start of the listing order (entries the client has already seen),
  // so the removal moves unseen entries forward and the next page skips some.
  const firstSeen = <T>(items: T[]) => (order === 'newest-first' ? items.reverse() : items).slice(0, remove);
  if (remove > 0) {
    if ((kind === 'fundings' || kind === 'orders') && !project.isPaidOut) {
      for (const key of firstSeen(project.activeSupportKeys())) project.failSupport(key);
    } else if (kind === 'wall') {
      for (const id of firstSeen(project.wallPostIds().reverse())) project.removeWallPost(id);
    } else if (kind === 'subscribers') {
      const keys = project.subscribersPage(0, Number.MAX_SAFE_INTEGER, 'oldest-first').items.map((s) => ({
        subscribedTimestamp: s.subscribed_timestamp,
        userId: s.user?.id ?? null,
      }));
      for (const key of firstSeen(keys)) project.removeSubscriber(key);
    }
  }
  for (let i = 0; i < insert; i++) {
    if (kind === 'fundings' || kind === 'orders') {
      if (!project.isPaidOut) project.addSupporter({ displayName: state.names.person().displayName });
    } else if (kind === 'wall') project.addWallPost({ message: state.names.wallMessage() });
    else if (kind === 'subscribers') project.addSubscriber();
    else {
      const post = state.names.blogPost(i);
      project.addBlogPost({ ...post, type: blogType, supporterOnly: false });
    }
  }
}

function userEndpoint(
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
