import type { ChannelRef } from '../ports.js';
import { formatDateTime } from '../time-format.js';
import type { CommandRun } from './command-run.js';

/**
 * "⚠️ fundbot cannot post here since …: <what to do>", when the delivery pipeline found
 * it cannot post in the invoking channel (its notices are held for a catch-up); undefined
 * otherwise (also when the store cannot be read). One store read; nothing without the
 * access states (the console).
 */
export async function cannotPostLine(run: CommandRun): Promise<string | undefined> {
  const found = await cannotPostIn(run, run.invocation.context.channel);
  return found && run.t.access.cannotPost(found.problem, found.since);
}

/**
 * Why fundbot cannot post in `channel` and since when, in the run's language; undefined when it can (or the
 * store does not answer: /status names that failure itself). One store read (the shared access state).
 */
export async function cannotPostIn(
  run: CommandRun,
  channel: ChannelRef,
): Promise<{ readonly problem: string; readonly since: string } | undefined> {
  const state = await run.deps.channelAccessStates?.get(channel).catch(() => undefined);
  if (!state) return undefined;
  const { t, locale } = run;
  const missing = state.missing?.map((p) => t.subscriptions.permissionNames[p]);
  const problem = t.access.problem(
    state.reason,
    channel.platform,
    missing && missing.length > 0 ? t.common.list(missing) : undefined,
  );
  return { problem, since: formatDateTime(state.since, locale, run.timeZone) };
}
