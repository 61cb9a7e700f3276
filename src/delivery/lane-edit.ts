import { type ChannelRef, channelKey } from '../domain/channels.js';
import { errorSummary } from '../domain/error-summary.js';
import { backoffMs } from '../lib/backoff.js';
import { type LaneDeps, laneRetryBackoff } from './lane-deps.js';
import type { EditTask } from './lane-item.js';

/**
 * Runs one edit of a posted notice (a correction) for the lane `laneName`. Edits are idempotent: retried a few
 * times with the lane's backoff, then given up with a warning. True when it ended without a fault.
 */
export async function runEdit(
  deps: LaneDeps,
  laneName: string,
  channel: ChannelRef,
  task: EditTask,
  attempts = 0,
): Promise<boolean> {
  try {
    await task.run();
    task.settle(true);
    return true;
  } catch (error) {
    if (attempts >= 4) {
      deps.logger.warn(
        { channel: channelKey(channel), edit: task.label, ...errorSummary(error) },
        'edit given up after retries',
      );
      task.settle(false);
      return false;
    }
    const wait = backoffMs(laneRetryBackoff, attempts + 1, () => deps.random.next());
    deps.wakeups.at(`${laneName}:edit:${task.label}`, deps.clock.now() + wait, () => {
      void deps.track(runEdit(deps, laneName, channel, task, attempts + 1));
    });
    return false;
  }
}
