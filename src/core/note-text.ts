import type { EngineNote, FailureKind } from '../domain/engine-notes.js';
import type { Locale } from './command-core.js';
import { formatNumber } from './format.js';
import type { Catalog } from './i18n/catalog.js';
import { formatClock } from './time-format.js';

/**
 * An engine note (a code with parameters, domain/engine-notes.ts) in the channel's
 * language, its times on the channel's clock. The one place notes become words for a
 * channel: /status, the stale label of /funding and friends, the digest's footer.
 */
export function noteText(note: EngineNote, t: Catalog, locale: Locale, timeZone: string): string {
  const n = t.notes;
  const feedName = (feed: keyof Catalog['status']['feedNames']) => t.status.feedNames[feed];
  const failure = (kind: FailureKind, status: number | undefined) =>
    status !== undefined && kind === 'http-error'
      ? n.withStatus(n.failures[kind], String(status))
      : n.failures[kind];
  switch (note.code) {
    case 'scope-missing':
      return n.scopeMissing(note.params.scope, note.params.feed);
    case 'scope-restored':
      return n.scopeRestored(note.params.scope, note.params.feed);
    case 'key-rejected':
      return n.keyRejected;
    case 'key-wrong-project':
      return n.keyWrongProject;
    case 'key-accepted':
      return n.keyAccepted;
    case 'rate-limited':
      return n.rateLimited(feedName(note.params.feed), formatClock(note.params.until, locale, timeZone));
    case 'poll-failed':
      return n.pollFailed(feedName(note.params.feed), failure(note.params.failure, note.params.status));
    case 'read-failed':
      return failure(note.params.failure, note.params.status);
    case 'budget-wait':
      return n.budgetWait(formatClock(note.params.until, locale, timeZone));
    case 'lease-elsewhere':
      return n.leaseElsewhere;
    case 'state-rebaselined':
      return n.stateRebaselined;
    case 'store-write-refused':
      return n.storeWriteRefused;
    case 'flood-held':
      return n.floodHeld(feedName(note.params.feed), formatNumber(note.params.held, locale));
    case 'section-unavailable':
      return n.sectionUnavailable(note.params.section);
  }
}
