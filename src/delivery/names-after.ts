import { errorSummary } from '../domain/error-summary.js';
import type { WarningLogger } from '../domain/logger.js';
import type { ScheduledPost } from './delivery-api.js';
import type { ItemOutcome } from './lane-item.js';
import type { Batches } from './pacing/batches.js';

/**
 * A scheduled post that names people in part (a roll-call): once it is posted, the rest of the names follow in its
 * thread through the batches' one continuation (each part once through the ledger). A failure to queue them is
 * logged; the post itself stands.
 */
export async function continueNamesAfter(
  batches: Pick<Batches, 'continueNames'>,
  logger: WarningLogger,
  request: ScheduledPost,
  outcome: ItemOutcome,
): Promise<ItemOutcome> {
  const rest = request.namesAfter;
  if (outcome.kind !== 'posted' || !rest) return outcome;
  const { channel, id } = request;
  await batches
    .continueNames(channel, id, rest.project, 'supporters', rest.names, outcome.messageId, undefined)
    .catch((error: unknown) =>
      logger.warn({ ...errorSummary(error) }, 'names after a scheduled post not queued'),
    );
  return outcome;
}
