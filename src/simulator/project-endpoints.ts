/**
 * Response builders of the /project/{link_caption} endpoints: scope and team
 * checks per credential, then the project view, a reward or a page of a list.
 */
import type { Credential } from './credential.js';
import type { HandlerState } from './handler-state.js';
import { shiftIfAsked } from './page-shift-fault.js';
import { parsePaging } from './pagination.js';
import { apiError, errors, json, listBody, type Reply } from './replies.js';
import type { Route } from './routes.js';
import type { ProjectScope } from './types.js';

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

/**
 * GET /project/{link_caption}: a Project API Key of this project with project:read sees the full view, as does
 * a team member's User key with project:read; everyone else sees the public view (a `new` project stays
 * hidden). A key of another project is "a key not entitled to more" (api-spec.md, project endpoints rule 1):
 * the public view, 200, once the project is public; `key_project_mismatch` only while it is a draft, or always
 * with `otherKeyProjectPage: 'mismatch'` (rule 7 read strictly).
 */
export function getProject(state: HandlerState, lc: string, credential: Credential): Reply {
  const project = state.projectByCaption(lc);
  const publicView = () =>
    project !== undefined && project.status !== 'new'
      ? json(200, { project: project.projectView(false), status: 0 })
      : errors.accessDenied();
  if (credential.kind === 'project') {
    if (project === undefined) return errors.accessDenied();
    if (credential.linkCaption !== lc)
      return state.otherKeyProjectPage() === 'mismatch' || project.status === 'new'
        ? errors.mismatch()
        : publicView();
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
export function projectSubEndpoint(
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
