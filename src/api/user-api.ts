import type { UserKey } from './credentials.js';
import { endpoints } from './endpoints.js';
import type { HttpTransport } from './http-transport.js';
import { readListPage } from './list-page.js';
import type { CallOptions, Page, PageParams } from './page.js';
import { itemEnvelopeSchema, listEnvelopeSchema } from './schemas/envelopes.js';
import { type OwnIncentive, ownIncentiveSchema } from './schemas/incentive.js';
import { type OwnProject, ownProjectSchema } from './schemas/project.js';
import { type Identity, identitySchema, type Profile, profileResponseSchema } from './schemas/user.js';

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
  /** Own and team projects, drafts included. */
  projectsPage(params?: OwnProjectsParams): Promise<Page<OwnProject>>;
}

const ownIncentives = listEnvelopeSchema(ownIncentiveSchema);
const ownProjects = listEnvelopeSchema(ownProjectSchema);
const identityResponse = itemEnvelopeSchema(identitySchema);

/** The handle of a User API key. */
export function createUserApi(transport: HttpTransport, key: UserKey): UserApi {
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
    incentivesPage: (p) =>
      readListPage<OwnIncentive>(
        transport,
        {
          id: 'ownIncentives',
          schema: ownIncentives,
          path: endpoints.ownIncentives.template,
          key,
          query: { sort: p?.sort, fundable: p?.fundable, is_favorite: p?.isFavorite },
        },
        p,
      ),
    projectsPage: (p) =>
      readListPage<OwnProject>(
        transport,
        {
          id: 'ownProjects',
          schema: ownProjects,
          path: endpoints.ownProjects.template,
          key,
          query: { sort: p?.sort },
        },
        p,
      ),
  };
}
