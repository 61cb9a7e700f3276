import type { SupportDroppedEvent, SupporterEvent } from '../../src/domain/events.js';

/**
 * The correction of a posted supporter notice: `original`'s support dropped out (`entryKey`, its funding's key),
 * found at `at`; it names the supporter as the notice did.
 */
export const supportDroppedOf = (
  original: Pick<SupporterEvent, 'id' | 'project' | 'displayName'>,
  entryKey: string,
  at: number,
): SupportDroppedEvent => ({
  type: 'support-dropped',
  id: `${original.project}:support-dropped:${entryKey}`,
  project: original.project,
  occurredAt: at,
  detectedAt: at,
  originalEventId: original.id,
  entryKey,
  displayName: original.displayName,
});
