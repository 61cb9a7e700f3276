import type { ProjectKey } from './credentials.js';
import { type EndpointId, endpoints, fillPath } from './endpoints.js';
import type { HttpTransport } from './http-transport.js';
import { readListPage } from './list-page.js';
import type { CallOptions, Page, PageParams } from './page.js';
import { type BlogPost, type BlogType, blogPostSchema } from './schemas/blog-post.js';
import { itemEnvelopeSchema, listEnvelopeSchema } from './schemas/envelopes.js';
import { type Funding, fundingSchema } from './schemas/funding.js';
import {
  type Incentive,
  type IncentiveDetail,
  incentiveDetailSchema,
  incentiveSchema,
} from './schemas/incentive.js';
import { type Project, projectResponseSchema } from './schemas/project.js';
import { type WallPost, wallPostSchema } from './schemas/wall-post.js';

export interface BlogParams extends PageParams {
  /** Default `text` (server side). */
  blogType?: BlogType;
  /**
   * Sends `include_supporter_only=1`. A Project API key alone never unlocks the
   * content (posts stay redacted, `is_locked`); the parameter only bypasses the CDN cache.
   */
  includeSupporterOnly?: boolean;
}

/** What every `project(linkCaption)` handle can do, also without a key. */
export interface PublicProjectApi {
  readonly linkCaption: string;
  /**
   * The project. Without a key: the public view (from status `started` on; a draft answers
   * 403 project_access_denied or 401 auth_required). The legacy top-level `status` is dropped.
   */
  get(options?: CallOptions): Promise<Project>;
}

/**
 * A project read with its Project API key: one API request per call (one page of a list). Orders and
 * subscribers (personal data) have no call: fundbot never reads them.
 */
export interface ProjectApi extends PublicProjectApi {
  incentivesPage(page?: PageParams): Promise<Page<Incentive>>;
  /** One reward with its variation groups. */
  incentive(id: number, options?: CallOptions): Promise<IncentiveDetail>;
  blogPage(page?: BlogParams): Promise<Page<BlogPost>>;
  wallPage(page?: PageParams): Promise<Page<WallPost>>;
  fundingsPage(page?: PageParams): Promise<Page<Funding>>;
}

const lists = {
  incentives: listEnvelopeSchema(incentiveSchema),
  blog: listEnvelopeSchema(blogPostSchema),
  wall: listEnvelopeSchema(wallPostSchema),
  fundings: listEnvelopeSchema(fundingSchema),
};
const incentiveResponse = itemEnvelopeSchema(incentiveDetailSchema);

/** The handle of one project: only `get()` without a key, every list with a Project API key. */
export function createProjectApi(
  transport: HttpTransport,
  linkCaption: string,
  key: ProjectKey | undefined,
): PublicProjectApi | ProjectApi {
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
  const list = (id: keyof typeof lists & EndpointId) => ({ id, path: pathOf(id), key, linkCaption });

  return {
    linkCaption,
    get,
    incentivesPage: (page) =>
      readListPage<Incentive>(transport, { ...list('incentives'), schema: lists.incentives }, page),
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
    blogPage: (page) =>
      readListPage<BlogPost>(
        transport,
        {
          ...list('blog'),
          schema: lists.blog,
          query: { blog_type: page?.blogType, include_supporter_only: page?.includeSupporterOnly },
        },
        page,
      ),
    wallPage: (page) => readListPage<WallPost>(transport, { ...list('wall'), schema: lists.wall }, page),
    fundingsPage: (page) =>
      readListPage<Funding>(transport, { ...list('fundings'), schema: lists.fundings }, page),
  };
}
