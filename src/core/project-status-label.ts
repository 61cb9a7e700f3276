import { singleLine } from '../domain/text.js';
import { limits } from '../domain/text-limits.js';
import type { Catalog } from './i18n/catalog.js';

/**
 * Human words for a project's phase. `process_status` `payoff` wins over the
 * phase (a paid-out project is still `successful`). Unknown values are shown
 * as they are, bounded: the spec does not promise the list is complete.
 */
export function projectStatusLabel(catalog: Catalog, status: string, processStatus?: string | null): string {
  if (processStatus === 'payoff' || status === 'payoff') return catalog.projectStatus.payoff;
  switch (status) {
    case 'new':
      return catalog.projectStatus.new;
    case 'started':
      return catalog.projectStatus.started;
    case 'active':
      return catalog.projectStatus.active;
    case 'successful':
      return catalog.projectStatus.successful;
    default:
      return catalog.projectStatus.unknown(singleLine(status, limits.name));
  }
}
