import type { Project } from '../../api/index.js';
import type { WatchingEvent } from '../../domain/events.js';
import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import type { Locale } from '../command-core.js';
import type { NeutralMessage } from '../message.js';
import { renderNotice } from './render-notice.js';

/**
 * The "now watching" summary of a project (title, funding of goal, progress,
 * supporters) as a channel sees it when it subscribes: the same notice the
 * engine's first-run `watching` event renders to, built from the read model's
 * project instead, so it reaches the channel that asked whenever it asks.
 */
export function watchingNotice(
  linkCaption: string,
  project: Project,
  at: number,
  locale: Locale,
): NeutralMessage {
  const event: WatchingEvent = {
    type: 'watching',
    id: `${linkCaption}:watching`,
    project: linkCaption,
    occurredAt: at,
    detectedAt: at,
    title: singleLine(project.title, limits.title),
    funding: project.current_funding,
    goal: project.funding_threshold,
    currency: project.currency,
    supporters: project.supporter_count,
  };
  // A watching notice names no time: the zone does not matter.
  return renderNotice(event, locale, 'UTC');
}
