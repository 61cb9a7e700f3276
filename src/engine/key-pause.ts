import { ApiError } from '../api/index.js';
import { note, noteForLog } from '../domain/engine-notes.js';
import { type BackoffPolicy, backoffMs } from '../lib/backoff.js';
import type { EngineContext } from './engine-context.js';
import { noteError, type ProjectRuntime } from './project-runtime.js';

/**
 * How a rejected key (a paused project) and a missing scope (a feed switched off) are
 * re-checked, each with one ordinary poll through the gate: 5 s after the first refusal,
 * doubling to the 10-minute ceiling (±25 %). A key or scope fixed within minutes is seen
 * within about as long again (fixed after 2 minutes: seen at 2.6 at the latest), one that
 * stays broken costs 7 requests in its first 10 minutes and then at most 144 a day.
 */
export const recheckBackoff: BackoffPolicy = { baseMs: 5_000, maxMs: 10 * 60_000, jitter: 'spread' };

/** Epoch ms of re-check number `attempt` (1 = after the first refusal). */
export function nextRecheckAt(ctx: EngineContext, attempt: number): number {
  return ctx.clock.now() + backoffMs(recheckBackoff, attempt, () => ctx.random.next());
}

/** The codes by which the platform rejects the key itself (not a scope, not the project). */
const rejectedKeyCodes = new Set(['invalid_api_key', 'key_project_mismatch']);

/** The key itself was refused (`invalid_api_key` 401/403, `key_project_mismatch`): no feed can work. */
export function isKeyRejection(error: unknown): error is ApiError {
  return error instanceof ApiError && rejectedKeyCodes.has(error.code);
}

/**
 * Pauses every feed of the project after a key rejection: ONE error log naming the
 * project and what to do, a `/status` note, then probes on {@link recheckBackoff}.
 * A rejection at a probe only moves the next probe, a little further each time.
 */
export function pauseProject(ctx: EngineContext, rt: ProjectRuntime, error: ApiError): void {
  const now = ctx.clock.now();
  if (rt.paused !== null) {
    rt.paused.probes += 1;
    rt.paused.retryAt = nextRecheckAt(ctx, rt.paused.probes);
    return;
  }
  const lc = rt.config.linkCaption;
  const reason = note(error.code === 'key_project_mismatch' ? 'key-wrong-project' : 'key-rejected', {});
  rt.paused = { reason, since: now, probes: 1, retryAt: nextRecheckAt(ctx, 1) };
  noteError(rt, now, reason);
  ctx.logger.error(
    { project: lc, code: error.code, status: error.status },
    `${noteForLog(reason, lc)}: polling of ${lc} is paused. Create a Project API key in the administration of ${lc} (project administration → API keys) and replace the configured one; fundbot tries the key again after a few seconds, then less often, at least every ${recheckBackoff.maxMs / 60_000} minutes.`,
  );
}

/** A probe got through: the key works again. One log line; the feeds continue on their schedule. */
export function resumeProject(ctx: EngineContext, rt: ProjectRuntime): void {
  if (rt.paused === null) return;
  const lc = rt.config.linkCaption;
  rt.paused = null;
  const accepted = note('key-accepted', {});
  noteError(rt, ctx.clock.now(), accepted);
  ctx.logger.info({ project: lc }, noteForLog(accepted, lc));
}
