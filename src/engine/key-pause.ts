import { ApiError } from '../api/index.js';
import { note, noteForLog } from '../domain/engine-notes.js';
import type { EngineContext } from './engine-context.js';
import { noteError, type ProjectRuntime } from './project-runtime.js';

/**
 * A paused project is probed again this often (one poll through the gate): at most
 * 144 requests a day while its key is rejected, instead of every feed failing on
 * its own schedule.
 */
export const KEY_RETRY_MS = 10 * 60_000;

/** The codes by which the platform rejects the key itself (not a scope, not the project). */
const rejectedKeyCodes = new Set(['invalid_api_key', 'key_project_mismatch']);

/** The key itself was refused (`invalid_api_key` 401/403, `key_project_mismatch`): no feed can work. */
export function isKeyRejection(error: unknown): error is ApiError {
  return error instanceof ApiError && rejectedKeyCodes.has(error.code);
}

/**
 * Pauses every feed of the project after a key rejection: ONE error log naming the
 * project and what to do, a `/status` note, then one probe every {@link KEY_RETRY_MS}.
 * A rejection at a probe only moves the next probe.
 */
export function pauseProject(ctx: EngineContext, rt: ProjectRuntime, error: ApiError): void {
  const now = ctx.clock.now();
  if (rt.paused !== null) {
    rt.paused.retryAt = now + KEY_RETRY_MS;
    return;
  }
  const lc = rt.config.linkCaption;
  const reason = note(error.code === 'key_project_mismatch' ? 'key-wrong-project' : 'key-rejected', {});
  rt.paused = { reason, since: now, retryAt: now + KEY_RETRY_MS };
  noteError(rt, now, reason);
  ctx.logger.error(
    { project: lc, code: error.code, status: error.status },
    `${noteForLog(reason, lc)}: polling of ${lc} is paused. Create a Project API key in the administration of ${lc} (project administration → API keys) and replace the configured one; fundbot tries the key again every ${KEY_RETRY_MS / 60_000} minutes.`,
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
