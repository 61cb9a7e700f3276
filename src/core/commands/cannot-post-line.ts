import { formatDateTime } from '../time-format.js';
import type { CommandRun } from './command-run.js';

/**
 * "⚠️ fundbot cannot post here since …: <what to do>", when the delivery pipeline found
 * it cannot post in the invoking channel (its notices are held for a catch-up); undefined
 * otherwise (also when the store cannot be read). One store read; nothing without the
 * access states (the console).
 */
export async function cannotPostLine(run: CommandRun): Promise<string | undefined> {
  const { channel } = run.invocation.context;
  // A store that does not answer must not cost the whole answer: /status names that failure itself.
  const state = await run.deps.channelAccessStates?.get(channel).catch(() => undefined);
  if (!state) return undefined;
  const { t, locale } = run;
  const missing = state.missing?.map((p) => t.subscriptions.permissionNames[p]);
  const problem = t.access.problem(
    state.reason,
    channel.platform,
    missing && missing.length > 0 ? t.common.list(missing) : undefined,
  );
  return t.access.cannotPost(problem, formatDateTime(state.since, locale, run.timeZone));
}
