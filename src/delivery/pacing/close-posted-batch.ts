import { errorSummary } from '../../domain/error-summary.js';
import type { WarningLogger } from '../../domain/logger.js';
import { backoffMs } from '../../lib/backoff.js';
import type { Clock } from '../../lib/clock.js';
import { confirmRetryBackoff } from '../pending-confirmations.js';
import type { Wakeups } from '../wakeups.js';
import type { BatchRecord } from './batch-record.js';
import type { BatchStore } from './batch-store.js';

/**
 * Closes a batch that went out (its record `posted`, off its project's open list), again while the store refuses
 * ({@link confirmRetryBackoff}, as a delivery's confirmation): resolves once it is closed. Until then its caller
 * keeps the batch "on its way out", so no notice joins a batch already posted. A process that dies first leaves
 * the batch open in the store with its delivery confirmed: the next one finds it posted and closes it.
 */
export async function closePostedBatch(
  deps: {
    readonly batchStore: Pick<BatchStore, 'close'>;
    readonly wakeups: Wakeups;
    readonly clock: Clock;
    readonly logger: WarningLogger;
  },
  batch: BatchRecord,
): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await deps.batchStore.close({ ...batch, state: 'posted' });
      return;
    } catch (error) {
      if (attempt === 1)
        deps.logger.warn(
          { batch: batch.id, ...errorSummary(error) },
          'batch posted but not closed yet: closed when the store answers again (no notice joins it meanwhile)',
        );
      // The pace only (no jitter): one batch's retries race nobody.
      const at = deps.clock.now() + backoffMs(confirmRetryBackoff, attempt, () => 0.5);
      await new Promise<void>((resolve) => deps.wakeups.at(`batch-close:${batch.id}`, at, resolve));
    }
  }
}
