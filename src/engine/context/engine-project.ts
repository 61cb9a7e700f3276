import type { Project, ProjectApi, ProjectKey } from '../../api/index.js';
import type { EngineNote } from '../../domain/engine-notes.js';
import type { FeedName } from '../../domain/feeds.js';

/** The codes by which the platform refuses a project's key itself: the project is paused (key-pause.ts). */
export type RejectedKeyCode = 'invalid_api_key' | 'key_project_mismatch';

/**
 * Where a project's key came from, so a refusal says what to do: the operator's configuration (the variable
 * or key file named in messages) or a workspace's connect command (hosted fundbot).
 */
export type KeySource =
  | {
      readonly kind: 'configured';
      /** The variable named in messages (`SOLAR_KIOSK_API_KEY`, or `…_FILE`). */
      readonly variable: string;
      /** The key is read from a file that is watched: a replaced file takes effect without a restart. */
      readonly watchedFile: boolean;
    }
  | { readonly kind: 'connected' };

export interface EngineProject {
  readonly linkCaption: string;
  readonly key: ProjectKey;
  /** Where the key came from (what a refusal tells to do). Default: the configuration, variable unnamed. */
  readonly keySource?: KeySource;
  /**
   * The start-up key check found the key refused (taken once): the project starts paused, saying so once, without
   * sending the refused request again. Absent or undefined: its first poll finds out.
   */
  readonly rejectedAtCheck?: () => RejectedKeyCode | undefined;
  /** Percentages of the goal to announce. Default 25/50/75/100/150/200. */
  readonly milestones?: readonly number[];
  /**
   * Held until this settles (e.g. the project's own start-up key check): `true` starts
   * polling, `false` drops the project (it cannot be read). Other projects do not wait
   * for it. Absent: polled at once.
   */
  readonly ready?: Promise<boolean>;
  /**
   * The project as the start-up key check read it, with this key, moments before (taken once): the first project
   * poll uses it as its read instead of sending the same request again. Absent or undefined: the poll reads.
   */
  readonly checkedRead?: () => Project | undefined;
}

/** One finished poll of one feed; `skipped` = deferred by a Retry-After wait or a lost lease. */
export interface PollOutcome {
  readonly project: string;
  readonly feed: FeedName;
  readonly result: 'ok' | 'error' | 'rate_limited' | 'forbidden' | 'skipped';
  readonly durationMs: number;
}

/**
 * The part of the per-project record every stage reads (project/project-runtime.ts assembles the whole): what was
 * configured, the project's API, and the notes `/status` shows. The stages own the rest, one slice each.
 */
export interface ProjectBase {
  readonly config: EngineProject;
  readonly api: ProjectApi;
  readonly recentErrors: { at: number; note: EngineNote }[];
}

/** Keeps the last 20 notes for `/status` (codes: each channel reads them in its language). */
export function noteError(rt: ProjectBase, at: number, n: EngineNote): void {
  rt.recentErrors.push({ at, note: n });
  if (rt.recentErrors.length > 20) rt.recentErrors.splice(0, rt.recentErrors.length - 20);
}
