import type { Dispatcher } from 'undici';
import { z } from 'zod';
import { type Clock, systemClock } from '../lib/clock.js';
import { type Random, systemRandom } from '../lib/random.js';
import type { ProjectKey, UserKey } from './credentials.js';
import { type EndpointId, endpoints, fillPath } from './endpoints.js';
import { HttpTransport, type ResponseInfo } from './http-transport.js';
import { type IterateOptions, type Page, type PageParams, paginate } from './paginate.js';
import type { RateBudget } from './rate-budget.js';
import { type BlogPost, type BlogType, blogPostSchema } from './schemas/blog-post.js';
import { itemEnvelopeSchema, listEnvelopeSchema } from './schemas/envelopes.js';
import { type Funding, fundingSchema } from './schemas/funding.js';
import {
  type Incentive,
  type IncentiveDetail,
  incentiveDetailSchema,
  incentiveSchema,
  type OwnIncentive,
  ownIncentiveSchema,
} from './schemas/incentive.js';
import { type Order, orderSchema } from './schemas/order.js';
import { type OwnProject, ownProjectSchema, type Project, projectResponseSchema } from './schemas/project.js';
import { type Subscriber, subscriberSchema } from './schemas/subscriber.js';
import { type Identity, identitySchema, type Profile, profileResponseSchema } from './schemas/user.js';
import { type WallPost, wallPostSchema } from './schemas/wall-post.js';
import { blogPostKey, fundingKey, orderKey, subscriberKey, wallPostKey } from './stable-keys.js';

export interface ApiClientOptions {
  /** Base URL of the Project Data API, e.g. the simulator's `url`. No default on purpose. */
  baseUrl: string;
  /** For backoff, Retry-After waits and `receivedAt`. Default: system clock. */
  clock?: Clock;
  /** For backoff jitter. Default: Math.random. */
  random?: Random;
  /** Per attempt, headers and body together (real time). Default 10,000. */
  timeoutMs?: number;
  /** Retries of a GET after a 5xx, timeout or connection error. Default 3. */
  maxRetries?: number;
  /** Retries after a 429 whose Retry-After was waited out. Default 3. */
  maxRateLimitRetries?: number;
  /** Longest 429 wait the client sits through; beyond it throws RateLimitError. Default 60,000. */
  maxRetryAfterMs?: number;
  /** First backoff ceiling (full jitter, doubling per retry). Default 500. */
  backoffBaseMs?: number;
  /** Largest backoff ceiling. Default 30,000. */
  backoffMaxMs?: number;
  /** Larger bodies are refused (a connection error). Default 20 MiB. */
  maxResponseBytes?: number;
  /** An undici Agent or Pool. Default: an own keep-alive Agent, closed by close(). A passed one is not closed. */
  dispatcher?: Dispatcher;
  userAgent?: string;
  /** Metrics hook, called once per attempt. Receives no credential. Exceptions are ignored. */
  onResponse?: (info: ResponseInfo) => void;
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface BlogParams extends PageParams {
  /** Default `text` (server side). */
  blogType?: BlogType;
  /**
   * Sends `include_supporter_only=1`. A Project API key alone never unlocks the
   * content (posts stay redacted, `is_locked`); the parameter only bypasses the CDN cache.
   */
  includeSupporterOnly?: boolean;
}
export type BlogIterateParams = Omit<BlogParams, 'limit' | 'offset'> & IterateOptions;

/** What every `project(linkCaption)` handle can do, also without a key. */
export interface PublicProjectApi {
  readonly linkCaption: string;
  /**
   * The project. Without a key: the public view (from status `started` on; a draft answers
   * 403 project_access_denied or 401 auth_required). The legacy top-level `status` is dropped.
   */
  get(options?: CallOptions): Promise<Project>;
}

/** A project read with its Project API key. Every list has a `…Page` call and a whole-list iterator. */
export interface ProjectApi extends PublicProjectApi {
  incentivesPage(page?: PageParams): Promise<Page<Incentive>>;
  incentives(options?: IterateOptions): AsyncIterable<Incentive>;
  /** One reward with its variation groups. */
  incentive(id: number, options?: CallOptions): Promise<IncentiveDetail>;
  blogPage(page?: BlogParams): Promise<Page<BlogPost>>;
  blog(params?: BlogIterateParams): AsyncIterable<BlogPost>;
  /** 403 `funding_not_successful` (ForbiddenError) until the project is funded 100%. Personal data. */
  ordersPage(page?: PageParams): Promise<Page<Order>>;
  orders(options?: IterateOptions): AsyncIterable<Order>;
  /** Personal data. */
  subscribersPage(page?: PageParams): Promise<Page<Subscriber>>;
  subscribers(options?: IterateOptions): AsyncIterable<Subscriber>;
  wallPage(page?: PageParams): Promise<Page<WallPost>>;
  wall(options?: IterateOptions): AsyncIterable<WallPost>;
  fundingsPage(page?: PageParams): Promise<Page<Funding>>;
  fundings(options?: IterateOptions): AsyncIterable<Funding>;
}

export type OwnIncentiveSort = 'sold' | 'new' | 'price-a' | 'price-d' | 'name-a' | 'name-d' | 'rand';
export type OwnProjectSort =
  | 'project-end-date-d'
  | 'project-end-date-a'
  | 'project-activation-date-d'
  | 'project-activation-date-a'
  | 'project-title-d'
  | 'project-title-a'
  | 'project-funding-sum-d'
  | 'project-funding-sum-a'
  | 'project-support-count-d'
  | 'project-support-count-a'
  | 'project-fan-count-d'
  | 'project-fan-count-a'
  | 'rand';

export interface OwnIncentivesParams extends PageParams {
  sort?: OwnIncentiveSort;
  fundable?: boolean;
  isFavorite?: boolean;
}
export interface OwnProjectsParams extends PageParams {
  sort?: OwnProjectSort;
}

/** What a User API key reads. `me()` is personal data: never cache it with public project data. */
export interface UserApi {
  identity(options?: CallOptions): Promise<Identity>;
  me(options?: CallOptions): Promise<Profile>;
  incentivesPage(params?: OwnIncentivesParams): Promise<Page<OwnIncentive>>;
  incentives(
    params?: Omit<OwnIncentivesParams, 'limit' | 'offset'> & IterateOptions,
  ): AsyncIterable<OwnIncentive>;
  /** Own and team projects, drafts included. */
  projectsPage(params?: OwnProjectsParams): Promise<Page<OwnProject>>;
  projects(params?: Omit<OwnProjectsParams, 'limit' | 'offset'> & IterateOptions): AsyncIterable<OwnProject>;
}

export interface ApiClient {
  /** Without a key only `get()` exists (the public view). */
  project(linkCaption: string): PublicProjectApi;
  project(linkCaption: string, key: ProjectKey): ProjectApi;
  /** With a key that may be absent: narrow with `'wallPage' in handle` or check the key first. */
  project(linkCaption: string, key: ProjectKey | undefined): PublicProjectApi | ProjectApi;
  user(key: UserKey): UserApi;
  /** The OpenAPI description (public). Compare copies with diffOpenApi / checkApiDrift. */
  openapi(signal?: AbortSignal): Promise<unknown>;
  /** Latest budget reported for that credential; no key = the public (per IP) budget. */
  budget(key?: ProjectKey | UserKey): RateBudget | undefined;
  /** Epoch ms until which the API's Retry-After forbids requests with that credential; 0 when none. */
  pausedUntil(key?: ProjectKey | UserKey): number;
  /** Closes the own connection pool (not a passed dispatcher). */
  close(): Promise<void>;
}

const openApiDocSchema = z.looseObject({ paths: z.record(z.string(), z.unknown()) });

const lists = {
  incentives: listEnvelopeSchema(incentiveSchema),
  blog: listEnvelopeSchema(blogPostSchema),
  orders: listEnvelopeSchema(orderSchema),
  subscribers: listEnvelopeSchema(subscriberSchema),
  wall: listEnvelopeSchema(wallPostSchema),
  fundings: listEnvelopeSchema(fundingSchema),
  ownIncentives: listEnvelopeSchema(ownIncentiveSchema),
  ownProjects: listEnvelopeSchema(ownProjectSchema),
};
const incentiveResponse = itemEnvelopeSchema(incentiveDetailSchema);
const identityResponse = itemEnvelopeSchema(identitySchema);

type Query = Record<string, string | number | boolean | undefined>;

/**
 * Creates the typed client of the Project Data API.
 *
 * @example
 * const api = createApiClient({ baseUrl: sim.url, clock });
 * const project = api.project('solar-kiosk', parseProjectKey(env.FUNDBOT_PROJECT_KEY));
 * for await (const funding of project.fundings()) console.log(fundingKey(funding));
 * await api.close();
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const clock = options.clock ?? systemClock;
  const transport = new HttpTransport({
    baseUrl: options.baseUrl,
    clock,
    random: options.random ?? systemRandom,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxRetries: options.maxRetries ?? 3,
    maxRateLimitRetries: options.maxRateLimitRetries ?? 3,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    backoffBaseMs: options.backoffBaseMs ?? 500,
    backoffMaxMs: options.backoffMaxMs ?? 30_000,
    maxResponseBytes: options.maxResponseBytes ?? 20 * 1024 * 1024,
    dispatcher: options.dispatcher,
    userAgent: options.userAgent ?? 'fundbot-api-client',
    onResponse: options.onResponse,
  });

  async function list<T>(
    id: EndpointId,
    schema: z.ZodType<{ data: T[]; meta: Page<T>['meta'] }>,
    path: string,
    key: ProjectKey | UserKey,
    linkCaption: string | undefined,
    page: PageParams | undefined,
    query: Query = {},
  ): Promise<Page<T>> {
    const result = await transport.send({
      endpoint: endpoints[id],
      path,
      query: { ...query, limit: page?.limit, offset: page?.offset },
      key,
      linkCaption,
      schema,
      signal: page?.signal,
    });
    return {
      items: result.data.data,
      meta: result.data.meta,
      receivedAt: result.receivedAt,
      budget: result.budget,
    };
  }

  function iterate<T>(
    fetch: (page: PageParams) => Promise<Page<T>>,
    keyOf: (item: T) => string,
    options: IterateOptions | undefined,
  ): AsyncIterable<T> {
    return {
      [Symbol.asyncIterator]: () =>
        paginate<T>(
          (offset, limit, signal) => fetch(signal ? { offset, limit, signal } : { offset, limit }),
          keyOf,
          options ?? {},
        ),
    };
  }

  function iterateOptions(params: (IterateOptions & object) | undefined): IterateOptions {
    const result: IterateOptions = {};
    if (params?.signal) result.signal = params.signal;
    if (params?.onGap) result.onGap = params.onGap;
    return result;
  }

  function project(linkCaption: string): PublicProjectApi;
  function project(linkCaption: string, key: ProjectKey): ProjectApi;
  function project(linkCaption: string, key: ProjectKey | undefined): PublicProjectApi | ProjectApi;
  function project(linkCaption: string, key?: ProjectKey): PublicProjectApi | ProjectApi {
    if (typeof linkCaption !== 'string' || linkCaption.trim() === '') {
      throw new TypeError('a project link caption (the slug in the project URL) is required');
    }
    const base = fillPath(endpoints.project.template, { link_caption: linkCaption });
    const get = async (call?: CallOptions): Promise<Project> => {
      const result = await transport.send({
        endpoint: endpoints.project,
        path: base,
        key,
        linkCaption,
        schema: projectResponseSchema,
        signal: call?.signal,
      });
      return result.data.project;
    };
    if (!key) return { linkCaption, get };

    const pathOf = (id: EndpointId, params: Record<string, string | number> = {}) =>
      fillPath(endpoints[id].template, { link_caption: linkCaption, ...params });
    const incentivesPage = (page?: PageParams) =>
      list<Incentive>('incentives', lists.incentives, pathOf('incentives'), key, linkCaption, page);
    const blogPage = (page?: BlogParams) =>
      list<BlogPost>('blog', lists.blog, pathOf('blog'), key, linkCaption, page, {
        blog_type: page?.blogType,
        include_supporter_only: page?.includeSupporterOnly,
      });
    const ordersPage = (page?: PageParams) =>
      list<Order>('orders', lists.orders, pathOf('orders'), key, linkCaption, page);
    const subscribersPage = (page?: PageParams) =>
      list<Subscriber>('subscribers', lists.subscribers, pathOf('subscribers'), key, linkCaption, page);
    const wallPage = (page?: PageParams) =>
      list<WallPost>('wall', lists.wall, pathOf('wall'), key, linkCaption, page);
    const fundingsPage = (page?: PageParams) =>
      list<Funding>('fundings', lists.fundings, pathOf('fundings'), key, linkCaption, page);

    return {
      linkCaption,
      get,
      incentivesPage,
      incentives: (o) => iterate(incentivesPage, (i) => `incentive:${i.id}`, o),
      async incentive(id, call) {
        if (!Number.isSafeInteger(id) || id < 0) throw new TypeError('a reward id is a non-negative integer');
        const result = await transport.send({
          endpoint: endpoints.incentive,
          path: pathOf('incentive', { id }),
          key,
          linkCaption,
          schema: incentiveResponse,
          signal: call?.signal,
        });
        return result.data.data;
      },
      blogPage,
      blog: (params) => {
        const filter: BlogParams = {};
        if (params?.blogType) filter.blogType = params.blogType;
        if (params?.includeSupporterOnly !== undefined)
          filter.includeSupporterOnly = params.includeSupporterOnly;
        return iterate((page) => blogPage({ ...filter, ...page }), blogPostKey, iterateOptions(params));
      },
      ordersPage,
      orders: (o) => iterate(ordersPage, orderKey, o),
      subscribersPage,
      subscribers: (o) => iterate(subscribersPage, subscriberKey, o),
      wallPage,
      wall: (o) => iterate(wallPage, wallPostKey, o),
      fundingsPage,
      fundings: (o) => iterate(fundingsPage, fundingKey, o),
    };
  }

  function user(key: UserKey): UserApi {
    const ownIncentivesQuery = (p?: OwnIncentivesParams): Query => ({
      sort: p?.sort,
      fundable: p?.fundable,
      is_favorite: p?.isFavorite,
    });
    const incentivesPage = (p?: OwnIncentivesParams) =>
      list<OwnIncentive>(
        'ownIncentives',
        lists.ownIncentives,
        endpoints.ownIncentives.template,
        key,
        undefined,
        p,
        ownIncentivesQuery(p),
      );
    const projectsPage = (p?: OwnProjectsParams) =>
      list<OwnProject>('ownProjects', lists.ownProjects, endpoints.ownProjects.template, key, undefined, p, {
        sort: p?.sort,
      });
    return {
      async identity(call) {
        const result = await transport.send({
          endpoint: endpoints.identity,
          path: endpoints.identity.template,
          key,
          schema: identityResponse,
          signal: call?.signal,
        });
        return result.data.data;
      },
      async me(call) {
        const result = await transport.send({
          endpoint: endpoints.me,
          path: endpoints.me.template,
          key,
          schema: profileResponseSchema,
          signal: call?.signal,
        });
        return result.data.user;
      },
      incentivesPage,
      incentives: (params) => {
        const filter: OwnIncentivesParams = {};
        if (params?.sort) filter.sort = params.sort;
        if (params?.fundable !== undefined) filter.fundable = params.fundable;
        if (params?.isFavorite !== undefined) filter.isFavorite = params.isFavorite;
        return iterate(
          (page) => incentivesPage({ ...filter, ...page }),
          (i) => `incentive:${i.id}`,
          iterateOptions(params),
        );
      },
      projectsPage,
      projects: (params) => {
        const filter: OwnProjectsParams = {};
        if (params?.sort) filter.sort = params.sort;
        return iterate(
          (page) => projectsPage({ ...filter, ...page }),
          (p) => `project:${p.id}`,
          iterateOptions(params),
        );
      },
    };
  }

  return {
    project,
    user,
    async openapi(signal) {
      const result = await transport.send({
        endpoint: endpoints.openapi,
        path: endpoints.openapi.template,
        schema: openApiDocSchema,
        signal,
      });
      return result.data;
    },
    budget: (key) => transport.budget(key),
    pausedUntil: (key) => transport.pausedUntil(key),
    close: () => transport.close(),
  };
}
