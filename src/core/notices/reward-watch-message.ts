import type { Project } from '../../api/index.js';
import type { RewardRestockedEvent } from '../../domain/events.js';
import type { Locale } from '../command-core.js';
import { catalogFor } from '../i18n/index.js';
import type { NeutralMessage } from '../message.js';
import { projectUrl } from '../project-url.js';
import { renderNotice } from './render-notice.js';

/**
 * The reward watch's direct message (issue 32, item 3c): the channel's back-in-stock notice (title inert, price,
 * what is left) with a link to the project, where the member can order it. No project read: no link.
 */
export function rewardWatchMessage(
  event: RewardRestockedEvent,
  locale: Locale,
  timeZone: string,
  project: Pick<Project, 'url'> | undefined,
): NeutralMessage {
  const notice = renderNotice(event, locale, timeZone);
  const url = project ? projectUrl(project, locale) : undefined;
  if (!url) return notice;
  return {
    ...notice,
    links: [...(notice.links ?? []), { label: catalogFor(locale).funding.supportLink, url }],
  };
}
