import {
  type ApiClient,
  ApiError,
  ApiNetworkError,
  type Project,
  type ProjectApi,
  type ProjectKey,
  RateLimitError,
  ResponseValidationError,
} from '../api/index.js';
import { type FeedName, feedTable } from '../domain/feeds.js';
import type { Logger } from '../ops/logger.js';

/** What a project key can feed, each tied to one endpoint and scope. */
export const projectFeatures = ['project', 'supporters', 'wall', 'blog', 'rewards'] as const;
export type ProjectFeature = (typeof projectFeatures)[number];

/**
 * - `on`: the probe succeeded;
 * - `off`: the key lacks the scope: do not poll that feed;
 * - `unknown`: not verified (API unreachable, rate limited): poll anyway, the engine retries.
 */
export type FeatureState = 'on' | 'off' | 'unknown';

export interface ProjectKeyStatus {
  readonly linkCaption: string;
  /**
   * `disabled`: the project cannot be read (not found, plan below Pro): do not poll it.
   * `paused`: its key was rejected (invalid, deleted, of another project): it is kept and the
   * engine tries the key again (every 30-50 s, a key of another project every 10 minutes), so a key restored on the platform or replaced
   * in its file brings the project back without a restart.
   */
  readonly status: 'enabled' | 'paused' | 'disabled';
  /** `paused`: the code the key was refused with (the engine starts the project paused with it, saying why once). */
  readonly rejected?: 'invalid_api_key' | 'key_project_mismatch';
  readonly features: Readonly<Record<ProjectFeature, FeatureState>>;
  /** Human-readable findings for this project (no secrets), each saying what to do. */
  readonly warnings: readonly string[];
}

export interface KeyCheckReport {
  readonly projects: readonly ProjectKeyStatus[];
  /** Link captions of the projects to poll. */
  readonly enabled: readonly string[];
  /** Link captions of the projects whose key was rejected: kept, paused, re-checked by the engine. */
  readonly paused: readonly string[];
  /** All warnings, in project order: log them at start-up. */
  readonly warnings: readonly string[];
}

export interface KeyCheckProject {
  readonly linkCaption: string;
  /** Named in messages ("the key in SOLAR_KIOSK_API_KEY"). */
  readonly apiKeyEnv: string;
  readonly apiKey: ProjectKey;
}

export interface CheckProjectKeysOptions {
  readonly api: ApiClient;
  readonly projects: readonly KeyCheckProject[];
  /** Each warning is logged at warn level, a one-line summary per project at info. */
  readonly logger?: Logger;
  /** Aborts the probes still running (e.g. a start-up deadline); they count as unverified. */
  readonly signal?: AbortSignal;
  /**
   * Projects checked at the same time. Default {@link KEY_CHECK_CONCURRENCY}: with hundreds of
   * projects the checks run side by side, yet never more than this many requests at once.
   */
  readonly concurrency?: number;
  /**
   * A project's check stops after this long (its own timeout, shorter than a request's): a slow
   * answer leaves that project unverified, polling starts anyway. Default {@link KEY_CHECK_TIMEOUT_MS}.
   */
  readonly timeoutMs?: number;
  /**
   * Told as soon as each project's check is done (in completion order), before the whole report, with the
   * project as the check read it (when it could).
   */
  readonly onChecked?: (status: ProjectKeyStatus, project: Project | undefined) => void;
}

/**
 * Projects whose keys are checked at once at start-up: at most this many requests in flight.
 * 64: a slow answer holds its worker up to KEY_CHECK_TIMEOUT_MS, and with 1,000 projects and
 * 1% of requests slow 16 workers took 31 s to check them all (64: 7-10 s, bench `scale`).
 */
export const KEY_CHECK_CONCURRENCY = 64;
/** A project's check (one request) gives up after this long; the engine then finds out itself. */
export const KEY_CHECK_TIMEOUT_MS = 3_000;

interface Probe {
  readonly feature: ProjectFeature;
  /** The API scope the feature needs, from the one feed table. */
  readonly scope: string;
  /** What stops working without it, for the warning: the feed table's `offConsequence`. */
  readonly consequence: string;
  readonly run: (project: ProjectApi, signal: AbortSignal | undefined) => Promise<unknown>;
}

/** A feature's probe: its scope and consequence come from the feed table (src/domain/feeds.ts). */
function probeOf(feature: ProjectFeature, feed: FeedName, run: Probe['run']): Probe {
  return { feature, scope: feedTable[feed].scope, consequence: feedTable[feed].offConsequence, run };
}

/**
 * The project read is the whole check: it tells an invalid key, a key of another project,
 * an unknown project, a plan below Pro and a key without project:read (the public view).
 * The lists' scopes are not probed: each feed's first poll, right after, is that check
 * (a missing scope turns the feed off with a warning saying what to do, and it is
 * re-checked as src/engine/key-pause.ts says). Probing them here too cost 4
 * requests per project on top of the first poll: at 1,000 projects with 1% of the
 * requests slow, the first poll of all came 16 s after start instead of 10 (bench scale).
 */
const probes: readonly Probe[] = [
  probeOf('project', 'project', (p, signal) => p.get(signal ? { signal } : {})),
];

/**
 * The project read answers a key without project:read and a key of another project alike, with the public view
 * (api-spec.md, project endpoints rule 1). One list read tells them apart, only then: a list needs this project's
 * key, so another project's key is refused there (`key_project_mismatch`) whatever its scopes.
 */
const foreignKeyProbe = probeOf('supporters', 'fundings', (p, signal) =>
  p.fundingsPage({ limit: 1, ...(signal ? { signal } : {}) }),
);

const KEY_PAGE = 'project administration → API keys';

/**
 * Verifies each project's key once at start-up by reading the project with it, and
 * tells whether the project can be polled. The lists' features stay `unknown` here:
 * each feed's first poll checks its own scope (see `probes`).
 *
 * Cost: 1 request per project, plus whatever retries the API client makes on a 5xx or
 * 429; none for the projects after a network failure (the engine retries anyway).
 * Orders and subscribers are never read: fundbot does not read personal data.
 *
 * Never throws for an API answer; a bug (TypeError…) still throws.
 */
export async function checkProjectKeys(options: CheckProjectKeysOptions): Promise<KeyCheckReport> {
  const { api, logger } = options;
  const results: ProjectKeyStatus[] = new Array(options.projects.length);
  const shared = { unreachable: false };
  const timeoutMs = options.timeoutMs ?? KEY_CHECK_TIMEOUT_MS;
  let next = 0;
  // A small pool of workers, each taking the next project: bounded concurrency, config order kept in the report.
  const worker = async () => {
    for (let i = next++; i < options.projects.length; i = next++) {
      const project = options.projects[i] as KeyCheckProject;
      const own = AbortSignal.timeout(timeoutMs);
      const signal = options.signal ? AbortSignal.any([options.signal, own]) : own;
      const { status, read } = await checkOne(api, project, signal, shared);
      results[i] = status;
      options.onChecked?.(status, read);
    }
  };
  const workers = Math.max(
    1,
    Math.min(options.concurrency ?? KEY_CHECK_CONCURRENCY, options.projects.length),
  );
  await Promise.all(Array.from({ length: workers }, worker));

  const report: KeyCheckReport = {
    projects: results,
    enabled: results.filter((r) => r.status === 'enabled').map((r) => r.linkCaption),
    paused: results.filter((r) => r.status === 'paused').map((r) => r.linkCaption),
    warnings: results.flatMap((r) => r.warnings),
  };
  if (logger) {
    // A refused key is said by the engine, once, with what to do (it starts the project paused): not twice.
    for (const r of results)
      if (r.status !== 'paused') for (const warning of r.warnings) logger.warn(warning);
    for (const r of results)
      logger.debug({ project: r.linkCaption, status: r.status, features: r.features }, 'key check');
    // One line at info for the whole batch: a line per project was 1,000 lines at every start of a 1,000-project
    // replica (and 0.15 s of its CPU), each saying what the summary says; the exceptions are named, and warned above.
    logger.info(
      {
        checked: results.length,
        enabled: report.enabled.length,
        paused: report.paused,
        disabled: results.filter((r) => r.status === 'disabled').map((r) => r.linkCaption),
        // Counted, not named: an API away leaves every project unverified, and each has its warning above.
        unverified: results.filter((r) => r.features.project === 'unknown').length,
      },
      'key checks done',
    );
  }
  return report;
}

/**
 * Checks one project's key, probe after probe (the project first); `shared.unreachable` stops the others.
 * `read`: the project as the project probe read it.
 */
async function checkOne(
  api: ApiClient,
  project: KeyCheckProject,
  signal: AbortSignal,
  shared: { unreachable: boolean },
): Promise<{ status: ProjectKeyStatus; read?: Project }> {
  const features: Record<ProjectFeature, FeatureState> = {
    project: 'unknown',
    supporters: 'unknown',
    wall: 'unknown',
    blog: 'unknown',
    rewards: 'unknown',
  };
  const warnings: string[] = [];
  const lc = project.linkCaption;
  let status: ProjectKeyStatus['status'] = 'enabled';
  let rejected: ProjectKeyStatus['rejected'];

  if (shared.unreachable) {
    warnings.push(`${lc}: key not checked because the API was unreachable; polling starts anyway`);
    return { status: { linkCaption: lc, status, features, warnings } };
  }
  let read: Project | undefined;

  const client = api.project(lc, project.apiKey);
  for (const probe of probes) {
    if (signal.aborted) {
      warnings.push(`${lc}: key check aborted before ${probe.scope} was verified; polling starts anyway`);
      break;
    }
    let outcome = await runProbe(probe, client, signal);
    if (outcome.kind === 'ok' && probe.feature === 'project' && isPublicView(outcome.value)) {
      const list = await runProbe(foreignKeyProbe, client, signal);
      if (list.kind === 'disable' && list.rejected === 'key_project_mismatch') outcome = list;
    }
    if (outcome.kind === 'ok') {
      features[probe.feature] = 'on';
      if (probe.feature === 'project') read = outcome.value as Project;
      if (outcome.warning) warnings.push(`${lc}: ${outcome.warning}`);
      if (probe.feature === 'project' && isPublicView(outcome.value)) {
        warnings.push(
          `the key for ${lc} gets only the public view of the project (no process_status): it seems to lack project:read, so the paid-out notice and the campaign dates are off. Create a key with project:read (${KEY_PAGE}) and put it in ${project.apiKeyEnv}`,
        );
      }
      continue;
    }
    if (outcome.kind === 'missing-scope') {
      features[probe.feature] = 'off';
      warnings.push(
        `the key for ${lc} lacks ${probe.scope}: ${probe.consequence}. To turn them on, create a key with ${probe.scope} (${KEY_PAGE}) and put it in ${project.apiKeyEnv}`,
      );
      continue;
    }
    if (outcome.kind === 'disable') {
      status = outcome.rejected !== undefined ? 'paused' : 'disabled';
      rejected = outcome.rejected;
      for (const f of projectFeatures) features[f] = 'off';
      warnings.push(
        outcome.rejected !== undefined
          ? `${lc} is paused: ${outcome.reason(project)}; fundbot keeps it and tries the key again (a key file replaced is tried at once)`
          : `${lc} is disabled: ${outcome.reason(project)}`,
      );
      break;
    }
    // unverified: keep what is known, say why, and stop probing this project.
    warnings.push(`${lc}: ${outcome.reason}; polling starts anyway and the engine retries`);
    if (outcome.unreachable) shared.unreachable = true;
    break;
  }
  return {
    status: { linkCaption: lc, status, features, warnings, ...(rejected ? { rejected } : {}) },
    ...(read ? { read } : {}),
  };
}

type ProbeOutcome =
  | { kind: 'ok'; warning?: string; value?: unknown }
  | { kind: 'missing-scope' }
  | {
      kind: 'disable';
      reason: (project: KeyCheckProject) => string;
      /** The key itself was refused (with this code): the project is paused (kept), not disabled. */
      rejected?: ProjectKeyStatus['rejected'];
    }
  | { kind: 'unverified'; reason: string; unreachable: boolean };

async function runProbe(
  probe: Probe,
  client: ProjectApi,
  signal: AbortSignal | undefined,
): Promise<ProbeOutcome> {
  try {
    return { kind: 'ok', value: await probe.run(client, signal) };
  } catch (error) {
    // The client rethrows the caller's abort reason as is, whatever its type.
    if (signal?.aborted) {
      return {
        kind: 'unverified',
        reason: `key check aborted while checking ${probe.scope}`,
        unreachable: false,
      };
    }
    return classify(error, probe);
  }
}

function classify(error: unknown, probe: Probe): ProbeOutcome {
  if (error instanceof ResponseValidationError) {
    // The key works (200); the body does not match our schemas. The engine will report it too.
    return {
      kind: 'ok',
      warning: `the ${probe.feature} answer does not match the API spec (${error.issues.length} issue(s)): run the API drift check`,
    };
  }
  if (error instanceof RateLimitError) {
    return { kind: 'unverified', reason: `rate limited while checking ${probe.scope}`, unreachable: false };
  }
  if (error instanceof ApiError) {
    switch (error.code) {
      case 'insufficient_scope':
        return { kind: 'missing-scope' };
      case 'invalid_api_key':
      case 'auth_required':
      case 'invalid_token':
        return {
          kind: 'disable',
          rejected: 'invalid_api_key',
          reason: (p) =>
            `the key in ${p.apiKeyEnv} is invalid or was deleted: create a new Project API key for ${p.linkCaption} (${KEY_PAGE}) and export it in ${p.apiKeyEnv}`,
        };
      case 'key_project_mismatch':
        return {
          kind: 'disable',
          rejected: 'key_project_mismatch',
          reason: (p) =>
            `the key in ${p.apiKeyEnv} belongs to another project: export the key of ${p.linkCaption} there, or fix projects[].linkCaption`,
        };
      case 'project_access_denied':
      case 'project_not_found':
        return {
          kind: 'disable',
          reason: (p) =>
            `the project "${p.linkCaption}" does not exist or is not visible to its key: check linkCaption (the slug in the project URL)`,
        };
      case 'insufficient_project_plan':
        return {
          kind: 'disable',
          reason: (p) =>
            `the project "${p.linkCaption}" is not on the Pro plan or higher, which Project API keys require: upgrade the plan`,
        };
    }
    if (error.status >= 500) {
      return {
        kind: 'unverified',
        reason: `the API answered HTTP ${error.status} while checking ${probe.scope}`,
        unreachable: false,
      };
    }
    return {
      kind: 'unverified',
      reason: `checking ${probe.scope} failed with HTTP ${error.status} ${error.code}`,
      unreachable: false,
    };
  }
  if (error instanceof ApiNetworkError) {
    return { kind: 'unverified', reason: `the API is unreachable (${error.name})`, unreachable: true };
  }
  throw error;
}

/**
 * The API answers a key without project:read with the public view instead of an
 * error (spec, project endpoints, rule 1), so success alone proves nothing. The
 * signal: `process_status` is one of the fields a key with project:read adds
 * (null while nothing was paid out, but present); the public view never has it.
 * Costs no request: it reads the probe's answer.
 */
function isPublicView(project: unknown): boolean {
  return typeof project === 'object' && project !== null && !Object.hasOwn(project, 'process_status');
}
