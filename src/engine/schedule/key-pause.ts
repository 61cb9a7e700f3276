import { ApiError } from '../../api/index.js';
import { type EngineNote, note, noteForLog } from '../../domain/engine-notes.js';
import { type BackoffPolicy, backoffMs, RECOVERY_RECHECK_MAX_MS } from '../../lib/backoff.js';
import type { EngineProject, RejectedKeyCode } from '../context/engine-project.js';
import { noteError } from '../context/engine-project.js';
import type { EngineServices } from '../context/engine-services.js';
import type { ProjectPause, ScheduledProject } from './schedule-slice.js';

/**
 * How a rejected key (a paused project) and a scope the project's feed had and lost are re-checked: one
 * ordinary poll each, 5 s after the refusal, doubling to {@link RECOVERY_RECHECK_MAX_MS} (40 s, ±25 %). A key
 * enabled again or a scope added back is seen within 50 s however long it was broken (the re-checks depend on
 * how many failed, and stop growing after the fourth, at 75 s). Cost while it stays broken: 3 re-checks in the
 * first 35 s, then one every 30-50 s: 90 an hour, 2,160 a day. A lost scope's re-checks are polls of the key
 * (on Pro 22 % of its 10,000 a day, on Premium 4 %): the planner counts them as one-off requests and slows the
 * other feeds by as much. A refused key's re-checks spend no budget of the key (the simulator counts none; the
 * spec gives a refused key no limits of its own); the spec's "other 4xx do not succeed on retry" is why they are
 * re-checks at a fixed pace, never retries of the refused request.
 */
export const recheckBackoff: BackoffPolicy = {
  baseMs: 5_000,
  maxMs: RECOVERY_RECHECK_MAX_MS,
  jitter: 'spread',
};

/**
 * A scope the project's feed was never read with (the key was made without it: an operator's choice as often as
 * an oversight): 5 s doubling to every 10 minutes, 144 requests a day. Adding it to the key is seen within 10
 * minutes; a new key with it (a replaced key file, a re-connect) at once.
 */
export const neverGrantedRecheckBackoff: BackoffPolicy = {
  baseMs: 5_000,
  maxMs: 10 * 60_000,
  jitter: 'spread',
};

/**
 * A key of another project (`key_project_mismatch`) is never this project's: only another key fixes it, and a
 * changed key is tried at once (`Engine.keyReplaced`, a re-connect adds the project anew). Its re-checks are one
 * list read every 10 minutes (±25 %), 144 a day, spent on the budget of the project the key belongs to.
 */
export const foreignKeyRecheckBackoff: BackoffPolicy = {
  baseMs: 10 * 60_000,
  maxMs: 10 * 60_000,
  jitter: 'spread',
};

/** Epoch ms of re-check number `attempt` (1 = after the first refusal) under `policy`. */
export function nextRecheckAt(ctx: EngineServices, attempt: number, policy = recheckBackoff): number {
  return ctx.clock.now() + backoffMs(policy, attempt, () => ctx.random.next());
}

/** The codes by which the platform rejects the key itself (not a scope, not the project). */
const rejectedKeyCodes: ReadonlySet<string> = new Set<RejectedKeyCode>([
  'invalid_api_key',
  'key_project_mismatch',
]);

/** The key itself was refused (`invalid_api_key` 401/403, `key_project_mismatch`): no feed can work. */
export function isKeyRejection(error: unknown): error is ApiError & { code: RejectedKeyCode } {
  return error instanceof ApiError && rejectedKeyCodes.has(error.code);
}

const policyOf = (reason: EngineNote): BackoffPolicy =>
  reason.code === 'key-wrong-project' ? foreignKeyRecheckBackoff : recheckBackoff;

/** Epoch ms of a paused project's next probe, at the pace its reason sets (after a probe that proved nothing). */
export function nextProbeAt(ctx: EngineServices, pause: ProjectPause): number {
  return nextRecheckAt(ctx, Math.max(1, pause.probes), policyOf(pause.reason));
}

const seconds = (ms: number) => Math.round(ms / 1000);
/** {@link recheckBackoff}'s pace once backed off, in words for the log ("every 30-50 s"). */
export const recheckPace = `every ${seconds(0.75 * RECOVERY_RECHECK_MAX_MS)}-${seconds(1.25 * RECOVERY_RECHECK_MAX_MS)} s`;

/** What the operator (or the workspace that connected the project) does about a rejected key: one sentence. */
function whatToDo(config: EngineProject, code: RejectedKeyCode): string {
  const lc = config.linkCaption;
  const source = config.keySource;
  const foreign = code === 'key_project_mismatch';
  const key = foreign ? `a Project API key of ${lc}` : 'a new Project API key';
  const slow = `${foreignKeyRecheckBackoff.maxMs / 60_000} minutes`;
  const after = foreign
    ? `fundbot tries a new key at once, and this one again only every ${slow}`
    : `fundbot re-checks the key ${recheckPace} meanwhile`;
  if (source?.kind === 'connected') {
    return `${lc} was connected from chat: an admin of its workspace connects it again with ${key} (project administration of ${lc} → API keys, then the connect command)${foreign ? '' : ', or enables the key again'}; ${after}.`;
  }
  const where = source?.kind === 'configured' ? source.variable : `the key setting of ${lc}`;
  const swap =
    source?.kind === 'configured' && source.watchedFile
      ? 'the file is read again without a restart'
      : 'then restart fundbot';
  const fix = foreign
    ? `Put ${key} in ${where} (project administration of ${lc} → API keys; ${swap}), or correct projects[].linkCaption`
    : `Create ${key} in the administration of ${lc} (project administration → API keys) and put it in ${where} (${swap}), or enable the key again`;
  return `${fix}; ${after}.`;
}

/**
 * Pauses every feed of the project after a key rejection: ONE error log naming the project and what to do, a
 * `/status` note, then probes at the pace of {@link recheckBackoff} (a key of another project:
 * {@link foreignKeyRecheckBackoff}). A rejection at a probe only moves the next probe; after the key was replaced
 * (`probes` 0) or when the reason changes, the new rejection is said again, once.
 */
export function pauseProject(
  ctx: EngineServices,
  rt: ScheduledProject,
  rejection: { readonly code: RejectedKeyCode; readonly status?: number },
): void {
  const now = ctx.clock.now();
  const params = rt.config.keySource?.kind === 'connected' ? { connected: true as const } : {};
  const reason = note(
    rejection.code === 'key_project_mismatch' ? 'key-wrong-project' : 'key-rejected',
    params,
  );
  const paused = rt.paused;
  if (paused !== null && paused.probes > 0 && paused.reason.code === reason.code) {
    paused.probes += 1;
    paused.retryAt = nextRecheckAt(ctx, paused.probes, policyOf(reason));
    return;
  }
  const lc = rt.config.linkCaption;
  const pause: ProjectPause = {
    reason,
    since: paused?.since ?? now,
    probes: 1,
    retryAt: nextRecheckAt(ctx, 1, policyOf(reason)),
  };
  rt.paused = pause;
  noteError(rt, now, reason);
  ctx.logger.error(
    {
      project: lc,
      code: rejection.code,
      ...(rejection.status !== undefined ? { status: rejection.status } : {}),
    },
    `${noteForLog(reason, lc)}: polling of ${lc} is paused. ${whatToDo(rt.config, rejection.code)}`,
  );
}

/** The key was replaced (a key file, a re-connect): a paused project is probed at once, and a refusal said again. */
export function keyChanged(ctx: EngineServices, rt: ScheduledProject): void {
  if (rt.paused === null) return;
  rt.paused.probes = 0;
  rt.paused.retryAt = ctx.clock.now();
}

/** A probe got through: the key works again. One log line; the feeds continue on their schedule. */
export function resumeProject(ctx: EngineServices, rt: ScheduledProject): void {
  if (rt.paused === null) return;
  const lc = rt.config.linkCaption;
  rt.paused = null;
  const accepted = note('key-accepted', {});
  noteError(rt, ctx.clock.now(), accepted);
  ctx.logger.info({ project: lc }, noteForLog(accepted, lc));
}
