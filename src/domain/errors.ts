import { type EngineNote, noteForLog } from './engine-notes.js';
import type { FundbotErrorCode } from './error-codes.js';
import type { FeedName } from './feeds.js';

/**
 * fundbot's own typed errors between the engine and the core. Each has a stable
 * `code` so a reader can branch on it without importing the class (the core
 * classifies by `code`), and a message for operators that never contains a secret.
 * Its user text and operator fix: the one list of codes, ./error-codes.ts.
 */
export abstract class FundbotError extends Error {
  abstract readonly code: FundbotErrorCode;
}

/** A feed the engine switched off because the key lacks its scope. */
export class FeedDisabledError extends FundbotError {
  override readonly name = 'FeedDisabledError';
  readonly code = 'feed_disabled';
  constructor(
    readonly project: string,
    readonly feed: FeedName,
    readonly scope: string,
  ) {
    super(`the key for ${project} lacks ${scope}: the ${feed} feed is off`);
  }
}

/** A command named a project this deployment does not watch. */
export class ProjectNotWatchedError extends FundbotError {
  override readonly name = 'ProjectNotWatchedError';
  readonly code = 'project_not_watched';
  constructor(readonly project: string) {
    super(`project "${project}" is not watched by this deployment`);
  }
}

/** Another replica holds the project's lease: this one may neither poll it nor commit its state. */
export class LeaseLostError extends FundbotError {
  override readonly name = 'LeaseLostError';
  readonly code = 'lease_lost';
  constructor(readonly project: string) {
    super(`another replica polls ${project}; its data is not available on this replica`);
  }
}

/** The project's API key was rejected: polling is paused until a key works again. */
export class ProjectPausedError extends FundbotError {
  override readonly name = 'ProjectPausedError';
  readonly code = 'project_paused';
  constructor(
    readonly project: string,
    /** Why: `key-rejected` or `key-wrong-project`. */
    readonly reason: EngineNote,
  ) {
    super(`polling of ${project} is paused: ${noteForLog(reason, project)}`);
  }
}

/** The `code` of one of fundbot's typed errors, or undefined for anything else. */
export function fundbotErrorCode(error: unknown): FundbotErrorCode | undefined {
  return error instanceof FundbotError ? error.code : undefined;
}
