import type { FeedName } from './feeds.js';

/**
 * The one table of what the engine (and the digest) says about a project's trouble:
 * a code with parameters, never a sentence. The engine produces notes (`/status`'s
 * recent errors, a switched-off feed, a paused project, why figures are stale); each
 * channel reads them in its own language (core/i18n `notes`, translated at the edge);
 * the operator's log and `/healthz` read the English of {@link noteForLog}, derived
 * from the same codes. Parameters are data fundbot produced (feed names, scopes,
 * counts, instants), never an error's text, so a note can reach a channel as it is.
 */

/** Why a request failed, as a channel may hear it: a category, never the error's own text. */
export type FailureKind =
  | 'timeout'
  | 'unreachable'
  | 'rate-limited'
  | 'bad-response'
  | 'key-refused'
  | 'forbidden'
  | 'http-error'
  | 'internal';

/** A section of the digest that could not be read. */
export type DigestSection = 'rewards' | 'wall' | 'blog';

export interface EngineNoteParams {
  /** The key lacks the feed's scope: the feed is off until the scope is added. */
  readonly 'scope-missing': { readonly feed: FeedName; readonly scope: string };
  /** A re-check found the scope again: the feed is back on. */
  readonly 'scope-restored': { readonly feed: FeedName; readonly scope: string };
  /**
   * The platform rejects the key (invalid, disabled, deleted): polling is paused. `connected`: the key came from a
   * workspace's connect command (hosted fundbot), so a workspace admin replaces it, not the operator.
   */
  readonly 'key-rejected': { readonly connected?: true };
  /** The platform says the key belongs to another project: polling is paused (`connected` as above). */
  readonly 'key-wrong-project': { readonly connected?: true };
  /** A probe got through: the key works again and polling resumes. */
  readonly 'key-accepted': Record<string, never>;
  /** A poll was rate limited; the feed waits until `until` (epoch ms). */
  readonly 'rate-limited': { readonly feed: FeedName; readonly until: number };
  /** A poll failed; the feed retries with backoff. `status` for `http-error`. */
  readonly 'poll-failed': {
    readonly feed: FeedName;
    readonly failure: FailureKind;
    readonly status?: number;
  };
  /** A refresh for a command failed: the figures shown are older (`Cached.staleBecause`). */
  readonly 'read-failed': { readonly failure: FailureKind; readonly status?: number };
  /** The request budget holds requests back until `until` (epoch ms). */
  readonly 'budget-wait': { readonly until: number };
  /** Another replica polls the project: this one has only older figures. */
  readonly 'lease-elsewhere': Record<string, never>;
  /** The stored state could not be read: the project started again from a baseline. */
  readonly 'state-rebaselined': Record<string, never>;
  /** The store refused a write: delivery progress is kept in memory until it recovers. */
  readonly 'store-write-refused': Record<string, never>;
  /** The flood guard held `held` new-looking entries of a feed's list and re-baselined it. */
  readonly 'flood-held': { readonly feed: FeedName; readonly held: number };
  /** A digest section could not be read: the digest went out without it. */
  readonly 'section-unavailable': { readonly section: DigestSection };
}

export type EngineNoteCode = keyof EngineNoteParams;

/** One note: its code and that code's parameters. */
export type EngineNote = {
  readonly [C in EngineNoteCode]: { readonly code: C; readonly params: EngineNoteParams[C] };
}[EngineNoteCode];

/** Builds a note; the parameters are checked against the code. */
export function note<C extends EngineNoteCode>(code: C, params: EngineNoteParams[C]): EngineNote {
  return { code, params } as EngineNote;
}

/** The failure categories in English: the operator's log, and the English channels' words too. */
export const failureEnglish: Readonly<Record<FailureKind, string>> = {
  timeout: 'the platform did not answer in time',
  unreachable: 'the platform could not be reached',
  'rate-limited': 'the platform asked fundbot to slow down',
  'bad-response': 'the platform sent a response fundbot does not understand',
  'key-refused': 'the platform refused the API key',
  forbidden: 'the API key may not read this',
  'http-error': 'the platform answered with an error',
  internal: 'an internal error (see the logs)',
};

/** A failure category in English (operators' words), with the HTTP status when there is one. */
export function failureForLog(failure: FailureKind, status?: number): string {
  return status !== undefined && failure === 'http-error'
    ? `${failureEnglish[failure]} (HTTP ${status})`
    : failureEnglish[failure];
}

type English = { readonly [C in EngineNoteCode]: (params: EngineNoteParams[C], project: string) => string };

const english: English = {
  'scope-missing': (p, project) => `the key for ${project} lacks ${p.scope}: the ${p.feed} feed is off`,
  'scope-restored': (p, project) =>
    `the key for ${project} has ${p.scope} again: the ${p.feed} feed is back on`,
  'key-rejected': () => 'the platform rejected the API key (invalid, disabled or deleted)',
  'key-wrong-project': () => 'the platform says the API key belongs to another project',
  'key-accepted': (_p, project) => `the API key for ${project} is accepted again: polling resumes`,
  'rate-limited': (p) => `${p.feed}: rate limited, waiting until ${new Date(p.until).toISOString()}`,
  'poll-failed': (p) => `${p.feed}: ${failureForLog(p.failure, p.status)}`,
  'read-failed': (p) => failureForLog(p.failure, p.status),
  'budget-wait': (p) => `the request budget is held for commands until ${new Date(p.until).toISOString()}`,
  'lease-elsewhere': (_p, project) => `another replica polls ${project}; its data is not available here`,
  'state-rebaselined': () => 'stored state unreadable, re-baselined',
  'store-write-refused': () =>
    'the state store refused a write: delivery progress is kept in memory until it recovers',
  'flood-held': (p) => `flood guard on ${p.feed}: held ${p.held} notices and re-baselined`,
  'section-unavailable': (p) => `${p.section} unavailable`,
};

/**
 * The note in English, for the operator's log and `/healthz` (channels get their own
 * language from the core's catalogs). `project` names the project where the words need it.
 */
export function noteForLog(n: EngineNote, project = 'the project'): string {
  const describe = english[n.code] as (params: EngineNote['params'], project: string) => string;
  return describe(n.params, project);
}

/**
 * A note read back from the store (the fleet's shared project status): a known code with an object of
 * parameters. What another version wrote under a code this one does not know is not shown.
 */
export function isEngineNote(value: unknown): value is EngineNote {
  if (typeof value !== 'object' || value === null) return false;
  const { code, params } = value as { code?: unknown; params?: unknown };
  return (
    typeof code === 'string' && Object.hasOwn(english, code) && typeof params === 'object' && params !== null
  );
}
