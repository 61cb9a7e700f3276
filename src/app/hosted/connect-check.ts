import {
  type ApiClient,
  ApiError,
  type Project,
  type ProjectApi,
  type ProjectKey,
  ResponseValidationError,
} from '../../api/index.js';
import type { ConnectRefusal } from '../../core/index.js';
import { type FeedName, feedTable } from '../../domain/feeds.js';

/** What fundbot polls of a connected project: each probed once, in parallel, before anything is stored. */
const probedFeeds = [
  'project',
  'fundings',
  'wall',
  'blog',
  'incentives',
] as const satisfies readonly FeedName[];

/** Feeds a connected project cannot go without: supporters are what "watching from now on" promises. */
const requiredFeeds: ReadonlySet<FeedName> = new Set(['fundings']);

/** A probe reads one entry: it proves the key and the scope, the engine's first poll then reads the lists. */
const probeLimit = 1;

/** How one feed answered the key. */
type ProbeAnswer =
  | { readonly kind: 'ok'; readonly value?: unknown }
  | { readonly kind: 'missing-scope' }
  | { readonly kind: 'refused'; readonly reason: ConnectRefusal }
  | { readonly kind: 'unanswered' };

/** The verdict on a key someone pasted into the connect form. */
export type ConnectCheck =
  | {
      readonly kind: 'accepted';
      /** Feeds the key lacks the scope of (optional ones only): they stay off, and the answer says so. */
      readonly featuresOff: readonly FeedName[];
      /** The project as the probe read it with this key (the engine's first project poll takes it). */
      readonly read: Project | undefined;
    }
  | { readonly kind: 'refused'; readonly reason: ConnectRefusal; readonly missingScopes?: readonly string[] };

/**
 * Tries a key on every feed fundbot will poll for the project, before the connect says anything or stores
 * anything (issue 30): the project page alone proves little, since the platform may serve its public view to
 * any key, so another project's key only shows itself at a list (`key_project_mismatch`). Refused: a key of
 * another project, a revoked or invalid key, a project that cannot be read (unknown, plan below Pro), a key
 * without fundings:read (no supporter could ever be announced), and an API that did not answer (nothing is
 * stored; the admin tries again). A key without an optional scope (wall, blog, rewards, project) is accepted
 * with those feeds named off.
 *
 * Cost: 5 requests on the pasted key, sent together (one list entry each); the engine's first poll then
 * takes the project read instead of sending it again.
 */
export async function checkConnectKey(
  api: ApiClient,
  linkCaption: string,
  key: ProjectKey,
  timeoutMs = 5_000,
): Promise<ConnectCheck> {
  const client = api.project(linkCaption, key);
  const signal = AbortSignal.timeout(timeoutMs);
  const answers = await Promise.all(probedFeeds.map((feed) => probe(client, feed, signal)));
  const byFeed = new Map(probedFeeds.map((feed, i) => [feed, answers[i] as ProbeAnswer]));
  // The key itself first: a revoked key or another project's key is what the admin must fix, whatever else failed.
  for (const reason of ['key-rejected', 'key-other-project', 'not-readable'] as const) {
    if (answers.some((a) => a.kind === 'refused' && a.reason === reason)) return { kind: 'refused', reason };
  }
  if (answers.some((a) => a.kind === 'unanswered')) return { kind: 'refused', reason: 'unverified' };
  const project = byFeed.get('project');
  // Its own key (every list answered), yet only the public view: the key lacks project:read.
  const publicView = project?.kind === 'ok' && !isFullView(project.value);
  const off = probedFeeds.filter(
    (feed) => byFeed.get(feed)?.kind === 'missing-scope' || (feed === 'project' && publicView),
  );
  if (off.some((feed) => requiredFeeds.has(feed))) {
    return {
      kind: 'refused',
      reason: 'scope-missing',
      missingScopes: off.map((feed) => feedTable[feed].scope),
    };
  }
  return {
    kind: 'accepted',
    featuresOff: off,
    read: project?.kind === 'ok' && !publicView ? (project.value as Project) : undefined,
  };
}

async function probe(client: ProjectApi, feed: FeedName, signal: AbortSignal): Promise<ProbeAnswer> {
  const page = { limit: probeLimit, offset: 0, signal };
  try {
    switch (feed) {
      case 'project':
        return { kind: 'ok', value: await client.get({ signal }) };
      case 'fundings':
        await client.fundingsPage(page);
        return { kind: 'ok' };
      case 'wall':
        await client.wallPage(page);
        return { kind: 'ok' };
      case 'blog':
        await client.blogPage({ ...page, blogType: 'text' });
        return { kind: 'ok' };
      case 'incentives':
        await client.incentivesPage(page);
        return { kind: 'ok' };
    }
  } catch (error) {
    return classify(error);
  }
}

function classify(error: unknown): ProbeAnswer {
  // The key works (200); the body does not match our schemas: the engine says so in the log.
  if (error instanceof ResponseValidationError) return { kind: 'ok' };
  if (!(error instanceof ApiError)) return { kind: 'unanswered' };
  switch (error.code) {
    case 'insufficient_scope':
      return { kind: 'missing-scope' };
    case 'key_project_mismatch':
      return { kind: 'refused', reason: 'key-other-project' };
    case 'invalid_api_key':
    case 'auth_required':
    case 'invalid_token':
      return { kind: 'refused', reason: 'key-rejected' };
    case 'project_access_denied':
    case 'project_not_found':
    case 'insufficient_project_plan':
      return { kind: 'refused', reason: 'not-readable' };
  }
  return { kind: 'unanswered' };
}

/**
 * The public view (what any key may get of a started project) lacks `process_status`: such a read is not
 * handed to the engine as the key's own (its first project poll reads again), and says nothing of the key.
 */
function isFullView(project: unknown): boolean {
  return typeof project === 'object' && project !== null && Object.hasOwn(project, 'process_status');
}
